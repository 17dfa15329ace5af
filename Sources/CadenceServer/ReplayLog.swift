import CadenceCore

/// The retained events of one answer, bounded in count and bytes: the oldest are dropped first.
///
/// Entries are keyed by sequence number. The `: flush-tokens` marker has no sequence of its own and
/// is keyed with the event that follows it (`complete`), so "everything after N" always includes it
/// when it includes `complete`.
struct ReplayLog: Sendable {
    struct Entry: Sendable {
        var key: Int
        var event: ResearchEvent
        var bytes: Int
    }

    let maxEvents: Int
    let maxBytes: Int
    private var entries: [Entry] = []
    private var head = 0
    private(set) var bytes = 0
    /// The sequence number of the last event appended (0 before the first).
    private(set) var lastSequence = 0
    private var sentTokens = false

    init(maxEvents: Int, maxBytes: Int) {
        self.maxEvents = max(1, maxEvents)
        self.maxBytes = max(1, maxBytes)
    }

    /// The smallest sequence number still retained (`lastSequence + 1` when nothing is).
    var firstRetainedSequence: Int {
        head < entries.count ? entries[head].key : lastSequence + 1
    }

    /// Numbers and stores one engine event. A `complete` after tokens is preceded by a
    /// `flushTokens` marker.
    mutating func append(_ kind: ResearchEvent.Kind) {
        if case .token = kind { sentTokens = true }
        if case .complete = kind, sentTokens {
            store(Entry(key: lastSequence + 1, event: ResearchEvent(kind: .flushTokens), bytes: 16))
        }
        lastSequence += 1
        let event = ResearchEvent(sequence: lastSequence, kind: kind)
        store(Entry(key: lastSequence, event: event, bytes: event.json.jsonText.utf8.count))
    }

    /// Whether the events after `sequence` are all still here.
    func canReplay(after sequence: Int) -> Bool {
        sequence + 1 >= firstRetainedSequence
    }

    /// The retained events with a key greater than `sequence`, oldest first.
    func events(after sequence: Int) -> [ResearchEvent] {
        var result: [ResearchEvent] = []
        var index = entries.count
        // Scan back from the end: readers are usually close to the live edge.
        while index > head, entries[index - 1].key > sequence { index -= 1 }
        result.reserveCapacity(entries.count - index)
        for entry in entries[index...] { result.append(entry.event) }
        return result
    }

    private mutating func store(_ entry: Entry) {
        entries.append(entry)
        bytes += entry.bytes
        while entries.count - head > maxEvents || (bytes > maxBytes && entries.count - head > 1) {
            bytes -= entries[head].bytes
            head += 1
        }
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
