/// An incremental decoder for `text/event-stream` bodies, following the WHATWG HTML
/// "server-sent events" parsing algorithm exactly.
///
/// Feed it the body's bytes as they arrive, in chunks of any size: the result never depends on
/// where the chunks split (a CRLF or a multi-byte character may straddle two chunks). Call
/// ``finish()`` at the end of the body; an event that has no blank line after it is discarded
/// there, as the standard requires.
///
/// ```swift
/// var decoder = SSEDecoder()
/// var items = try decoder.feed(Array("event: token\nid: 1\ndata: {\"content\":\"Hel".utf8))
/// items += try decoder.feed(Array("lo\"}\n\n: keepalive\n".utf8))
/// items += try decoder.finish()
/// // items == [.event(SSEEvent(type: "token", data: "{\"content\":\"Hello\"}", id: "1")),
/// //           .comment("keepalive")]
/// // decoder.lastEventID == "1"
/// ```
///
/// The decoder follows the standard in every detail: lines end with CR, LF or CRLF; a UTF-8
/// byte order mark is skipped at the start of the body; a line without a colon is a field with
/// an empty value; one space after the colon is removed; `data` lines are joined with LF; an
/// `id` containing NUL is ignored; `retry` needs ASCII digits only; unknown fields are ignored;
/// a block without `data` dispatches nothing but still resets the event type; the last event ID
/// carries over from event to event. Invalid UTF-8 becomes U+FFFD, decoded once per complete
/// field, so characters split across chunks stay intact.
///
/// To read events without a `String` each, decode into an ``SSEBatch`` with
/// `feed(_:into:)`: each event's data stays as the bytes that arrived, in one buffer
/// the batch reuses, and becomes a `String` only when asked for.
///
/// ``SSELimits`` bound its memory: an over-long line (or a body with no newline at all) or an
/// over-large event throws ``SSEDecoderError``. After an error the decoder stays failed: every
/// later call throws the same error.
///
/// After ``finish()`` the decoder is ready for the next response of the same event source, as
/// after a reconnection: ``lastEventID`` and ``reconnectionTime`` are kept, and a byte order
/// mark is skipped again at the start of the new body.
public struct SSEDecoder: Sendable {
    /// The limits this decoder enforces.
    public let limits: SSELimits
    /// The last event ID, as of the latest dispatch (a blank line ending a block, with or without
    /// data). Send it as the `Last-Event-ID` header when reconnecting.
    public internal(set) var lastEventID: String
    /// The reconnection time in milliseconds from the latest valid `retry` field, if any.
    public internal(set) var reconnectionTime: Int?

    /// The start of the current line, while it is not known to be a `data` line.
    var pendingLine: [UInt8] = []
    /// The `data` lines of the current block, each followed by LF.
    var dataBuffer: [UInt8] = []
    /// Whether the current, unfinished line is a `data` line whose value goes straight to `dataBuffer`.
    var isStreamingData = false
    /// The length of the current line so far, while `isStreamingData`.
    var streamingLineLength = 0
    /// The `event` field of the current block; empty means "message".
    var eventType = ""
    /// The latest valid `id` field.
    var idBuffer: String
    /// Whether `lastEventID` is `idBuffer` already, so that dispatching need not assign it again.
    var idIsDispatched = true
    /// Whether the previous chunk ended with CR, so an LF at the start of the next one ends nothing.
    var skipsLeadingLF = false
    /// How many bytes of a UTF-8 byte order mark the body has started with, or -1 once decided.
    var byteOrderMarkMatched = 0
    /// The error that stopped the decoder.
    @usableFromInline var failure: SSEDecoderError?
    #if DEBUG
    /// Bytes scanned, copied or decoded so far: tests check that it grows linearly with the input.
    var work = 0
    #endif

    /// Creates a decoder.
    /// - Parameters:
    ///   - limits: the size limits to enforce.
    ///   - lastEventID: the last event ID of an earlier connection to the same event source, so
    ///     that events keep reporting it until the server sends a new `id`.
    public init(limits: SSELimits = .default, lastEventID: String = "") {
        self.limits = limits
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
    }

    /// Decodes the next bytes of the body and returns what they complete, in order.
    ///
    /// Contiguous collections (`[UInt8]`, `ArraySlice`, `Data`, NIO's `ByteBufferView`…) are read
    /// in place. If a limit is exceeded part-way through `bytes`, the items decoded before that
    /// point are returned and the next call throws; a call that decodes nothing throws at once.
    @inlinable
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(SSEDecoderError) -> [SSEItem] {
        var items: [SSEItem] = []
        items.reserveCapacity(Swift.min(bytes.count / 32, 1024))  // room for small events without regrowing
        let decodedInPlace: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            decode(UnsafeRawBufferPointer(buffer), into: &items)
        }
        if decodedInPlace == nil {
            Array(bytes).withUnsafeBytes { decode($0, into: &items) }
        }
        if let failure, items.isEmpty { throw failure }
        return items
    }

    /// Decodes the next bytes of the body, appending what they complete to `items`.
    ///
    /// The fastest way in: reuse one `items` array across calls. Items decoded before a limit
    /// is exceeded are appended before the error is thrown.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, into items: inout [SSEItem]) throws(SSEDecoderError) {
        decode(bytes, into: &items)
        if let failure { throw failure }
    }

    /// Decodes the next bytes of the body, appending what they complete to `batch`, where each
    /// event's data stays as bytes: nothing is allocated per event (see ``SSEBatch``).
    ///
    /// The fastest way in when the events' data is read as bytes (JSON, for one): reuse one batch,
    /// calling ``SSEBatch/removeAll()`` once its items are read. The batch receives exactly the items
    /// ``feed(_:)`` would return. Contiguous collections are read in place. Items decoded before a
    /// limit is exceeded are appended before the error is thrown.
    @inlinable
    public mutating func feed(_ bytes: some Collection<UInt8>, into batch: inout SSEBatch) throws(SSEDecoderError) {
        let decodedInPlace: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            decode(UnsafeRawBufferPointer(buffer), into: &batch)
        }
        if decodedInPlace == nil {
            Array(bytes).withUnsafeBytes { decode($0, into: &batch) }
        }
        if let failure { throw failure }
    }

    /// Ends the body: discards an unfinished line and an event without its closing blank line,
    /// and readies the decoder for the next connection of the same event source.
    ///
    /// It returns no items (the standard dispatches nothing at the end of a body); it throws the
    /// error left by the last ``feed(_:)``, if any.
    public mutating func finish() throws(SSEDecoderError) -> [SSEItem] {
        if let failure { throw failure }
        pendingLine.removeAll(keepingCapacity: pendingLine.capacity <= Self.retainedCapacity)
        dataBuffer.removeAll(keepingCapacity: dataBuffer.capacity <= Self.retainedCapacity)
        isStreamingData = false
        streamingLineLength = 0
        eventType = ""
        idBuffer = lastEventID
        idIsDispatched = true
        skipsLeadingLF = false
        byteOrderMarkMatched = 0
        return []
    }

    /// Counts `bytes` of work, in debug builds only.
    @inline(__always)
    mutating func recordWork(_ bytes: Int) {
        #if DEBUG
        work += bytes
        #endif
    }

    /// Buffers up to this size are kept for the next line or event instead of being freed.
    static var retainedCapacity: Int { 1 << 20 }
}
