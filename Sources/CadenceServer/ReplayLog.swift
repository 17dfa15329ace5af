import CadenceCore
import NIOCore

/// One event as the node sends it: encoded once, when it is logged, and then written as is to every
/// reader (a thousand readers of an answer cost one JSON encoding per event, not a thousand).
struct LoggedEvent: Sendable {
    let event: ResearchEvent
    /// The event's JSON payload (a WebSocket message, an SSE `data:` line).
    let jsonText: String
    /// The whole SSE frame (`event:`, `id:`, `data:`; or the `: flush-tokens` comment).
    let frame: ByteBuffer

    init(_ event: ResearchEvent) {
        self.event = event
        self.jsonText = event.json.jsonText
        self.frame = ByteBuffer(string: ResearchEventEncoder.frame(event))
    }
}

/// The retained events of one answer, bounded as ``ReplayLimits`` says: the oldest are dropped first,
/// once they are past both the byte (or count) floor and the time window, or at once past the ceiling.
///
/// Entries are keyed by sequence number. The `: flush-tokens` marker has no sequence of its own and
/// is keyed with the event that follows it (`complete`), so "everything after N" always includes it
/// when it includes `complete`.
struct ReplayLog: Sendable {
    struct Entry: Sendable {
        init(key: Int, logged: LoggedEvent, at: Duration) {
            self.key = key
            self.logged = logged
            self.bytes = logged.jsonText.utf8.count + ReplayLimits.eventOverhead
            self.at = at
        }

        var key: Int
        var logged: LoggedEvent
        var bytes: Int
        /// When it was logged, as time since the log's clock started.
        var at: Duration
    }

    let limits: ReplayLimits
    private var entries: [Entry] = []
    private var head = 0
    private(set) var bytes = 0
    /// The sequence number of the last event appended (0 before the first).
    private(set) var lastSequence = 0
    private var sentTokens = false

    init(limits: ReplayLimits) {
        var limits = limits
        limits.maxEvents = max(1, limits.maxEvents)
        limits.maxBytes = max(1, limits.maxBytes)
        limits.ceilingBytes = max(limits.ceilingBytes, limits.maxBytes)
        self.limits = limits
    }

    /// The smallest sequence number still retained (`lastSequence + 1` when nothing is).
    var firstRetainedSequence: Int {
        head < entries.count ? entries[head].key : lastSequence + 1
    }

    /// Numbers and stores one engine event, logged at `now` (time on the log's clock). A `complete`
    /// after tokens is preceded by a `flushTokens` marker.
    mutating func append(_ kind: ResearchEvent.Kind, at now: Duration) {
        if case .token = kind { sentTokens = true }
        if case .complete = kind, sentTokens {
            store(Entry(key: lastSequence + 1, logged: LoggedEvent(ResearchEvent(kind: .flushTokens)), at: now), now: now)
        }
        lastSequence += 1
        store(Entry(key: lastSequence, logged: LoggedEvent(ResearchEvent(sequence: lastSequence, kind: kind)), at: now), now: now)
    }

    /// Whether the events after `sequence` are all still here.
    func canReplay(after sequence: Int) -> Bool {
        sequence + 1 >= firstRetainedSequence
    }

    /// The retained events with a key greater than `sequence`, oldest first.
    func events(after sequence: Int) -> [LoggedEvent] {
        var result: [LoggedEvent] = []
        var index = entries.count
        // Scan back from the end: readers are usually close to the live edge.
        while index > head, entries[index - 1].key > sequence { index -= 1 }
        result.reserveCapacity(entries.count - index)
        for entry in entries[index...] { result.append(entry.logged) }
        return result
    }

    private mutating func store(_ entry: Entry, now: Duration) {
        entries.append(entry)
        bytes += entry.bytes
        while entries.count - head > 1 {
            let overFloor = entries.count - head > limits.maxEvents || bytes > limits.maxBytes
            let outsideWindow = entries[head].at < now - limits.window
            guard bytes > limits.ceilingBytes || (overFloor && outsideWindow) else { break }
            bytes -= entries[head].bytes
            head += 1
        }
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
