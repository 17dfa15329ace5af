/// The items an ``SSEDecoder`` decoded, each event's data kept as the UTF-8 bytes that arrived, in
/// one buffer that the batch reuses from chunk to chunk: decoding into a batch allocates nothing
/// per event, and an event's data becomes a `String` only when asked for.
///
/// Reuse one batch: feed a chunk into it, read its items, then ``removeAll()`` (which keeps its
/// memory). Reading an event's ``Event/dataBytes`` copies nothing; ``Event/data`` decodes the text
/// each time it is read.
///
/// ```swift
/// var decoder = SSEDecoder()
/// var batch = SSEBatch()
/// for chunk in ["event: token\nid: 1\ndata: {\"content\":\"Hel", "lo\"}\n\n: keepalive\n"] {
///     try decoder.feed(Array(chunk.utf8), into: &batch)
///     for item in batch {
///         switch item {
///         case .event(let event):
///             event.type       // "token"
///             event.id         // "1"
///             event.dataBytes  // the 19 bytes {"content":"Hello"}, read in place
///             event.data       // the same as a String, decoded now
///         case .comment(let text):
///             print(text)      // "keepalive"
///         case .retry(let milliseconds):
///             print(milliseconds)
///         }
///     }
///     batch.removeAll()
/// }
/// ```
///
/// A batch holds exactly what ``SSEDecoder/feed(_:)`` would have returned for the same bytes:
/// `batch.map(SSEItem.init)` equals those items. It is a value: keep it, or an event taken from it,
/// as long as needed; an event kept past ``removeAll()`` keeps its bytes (the batch then starts a
/// new buffer instead of reusing the old one).
public struct SSEBatch: Sendable {
    /// The text of the items: each event's data, type and ID, each comment's text. Where a chunk
    /// holds whole events, its bytes are copied here once, from the first event on, and the events
    /// point into the copy.
    @usableFromInline var bytes: [UInt8] = []
    /// The items, in stream order, their text as ranges of `bytes`.
    @usableFromInline var entries: [Entry] = []

    /// An item, its text as ranges of `bytes`: plain values, so appending and reading one moves no
    /// reference counts.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline
        enum Kind: Sendable {
            case event, comment, retry
        }

        @usableFromInline var kind: Kind
        /// An event's data or a comment's text; for a retry, `lowerBound` is the milliseconds.
        @usableFromInline var text: Range<Int>
        /// An event's type, empty for `"message"`.
        @usableFromInline var type: Range<Int> = 0..<0
        /// An event's ID.
        @usableFromInline var id: Range<Int> = 0..<0
    }

    /// An empty batch.
    public init() {}

    /// Removes every item, keeping the memory for the next chunk's (unless one huge event made
    /// the buffer larger than 1 MiB: that much is freed).
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: bytes.capacity <= SSEDecoder.retainedCapacity)
        entries.removeAll(keepingCapacity: entries.capacity <= Self.retainedEntries)
    }

    /// Keeps room for this many items across ``removeAll()``.
    private static var retainedEntries: Int { 1 << 14 }
}

// Inlinable, so that a loop over a batch in another module costs no calls and no reference counts.
extension SSEBatch: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { entries.count }

    @inlinable
    public subscript(position: Int) -> Item {
        let entry = entries[position]
        switch entry.kind {
        case .event: return .event(Event(bytes: bytes, type: entry.type, id: entry.id, data: entry.text))
        case .comment: return .comment(bytes.withUnsafeBufferPointer { String(decodingUTF8: $0, entry.text) })
        case .retry: return .retry(entry.text.lowerBound)
        }
    }
}

extension SSEBatch {
    /// Appends to a batch the items decoded from one chunk, during one call of the decoder.
    ///
    /// An event whose data lies in the chunk (a single `data` line, the usual case) is not copied
    /// on its own: at the first such event, the rest of the chunk is copied into the batch once
    /// (up to ``copiedChunkLimit`` bytes), and this and the later events point into the copy.
    /// Event types and IDs are copied once each while they stay the same.
    struct Writer: SSEItemSink {
        /// The batch, moved out of the caller's variable while decoding.
        var batch = SSEBatch()
        let chunk: UnsafeBufferPointer<UInt8>
        /// Where `chunk[0]` would be in `batch.bytes`, once the chunk's tail was copied there.
        private var chunkOffset: Int?
        /// Where in the chunk the copy starts.
        private var copiedFrom = 0
        private var lastType = ""
        private var lastTypeRange = 0..<0
        private var lastID = ""
        private var lastIDRange = 0..<0

        /// The longest tail of a chunk that is copied at once; events in a longer one are copied
        /// each on its own, so a batch never holds much more than its events.
        static var copiedChunkLimit: Int { 64 << 10 }

        init(chunk: UnsafeBufferPointer<UInt8>) {
            self.chunk = chunk
        }

        @inline(__always)
        mutating func appendEvent(type: String, data: UnsafeBufferPointer<UInt8>, id: String) {
            appendEvent(type: type, text: place(data), id: id)
        }

        /// An event assembled in the decoder's buffer (one of many lines, or split by chunks): when the
        /// batch holds nothing yet, the buffer becomes its bytes, so a large event is not copied again.
        mutating func appendEvent(type: String, taking buffer: inout [UInt8], id: String) {
            guard batch.bytes.isEmpty else {
                buffer.withUnsafeBufferPointer {
                    appendEvent(type: type, text: append(UnsafeBufferPointer(rebasing: $0.dropLast())), id: id)
                }
                return
            }
            swap(&batch.bytes, &buffer)
            appendEvent(type: type, text: 0..<batch.bytes.count - 1, id: id)
        }

        @inline(__always)
        private mutating func appendEvent(type: String, text: Range<Int>, id: String) {
            if type != lastType {
                lastType = type
                lastTypeRange = append(type)
            }
            if id != lastID {
                lastID = id
                lastIDRange = append(id)
            }
            batch.entries.append(Entry(kind: .event, text: text, type: lastTypeRange, id: lastIDRange))
        }

        mutating func appendComment(_ text: UnsafeBufferPointer<UInt8>) {
            batch.entries.append(Entry(kind: .comment, text: place(text)))
        }

        mutating func appendRetry(_ milliseconds: Int) {
            batch.entries.append(Entry(kind: .retry, text: milliseconds..<milliseconds))
        }

        /// Where `text` is, or now is, in `batch.bytes`.
        @inline(__always)
        private mutating func place(_ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
            guard let start = text.baseAddress, let chunkStart = chunk.baseAddress,
                start >= chunkStart, start < chunkStart + chunk.count
            else { return append(text) }
            let offset = start - chunkStart
            if chunkOffset == nil {
                guard chunk.count - offset <= Self.copiedChunkLimit else { return append(text) }
                chunkOffset = batch.bytes.count - offset
                copiedFrom = offset
                batch.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[offset...]))
            }
            // An event's data line comes before the comments and fields that follow it in its block,
            // but the event after them: its data may lie before the copy.
            guard let chunkOffset, offset >= copiedFrom else { return append(text) }
            return chunkOffset + offset..<chunkOffset + offset + text.count
        }

        private mutating func append(_ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
            let start = batch.bytes.count
            batch.bytes.append(contentsOf: text)
            return start..<batch.bytes.count
        }

        private mutating func append(_ text: String) -> Range<Int> {
            var text = text
            return text.withUTF8 { append($0) }
        }
    }

    /// Runs `body` with a writer that appends to this batch the items decoded from `chunk`.
    mutating func write(_ chunk: UnsafeRawBufferPointer, _ body: (inout Writer) -> Void) {
        var writer = Writer(chunk: chunk.assumingMemoryBound(to: UInt8.self))
        swap(&writer.batch, &self)
        body(&writer)
        swap(&writer.batch, &self)
    }
}

extension String {
    /// Decodes `range` of `bytes` like ``init(decodingUTF8:)``.
    @usableFromInline
    init(decodingUTF8 bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.init(decodingUTF8: UnsafeBufferPointer(rebasing: bytes[range]))
    }
}
