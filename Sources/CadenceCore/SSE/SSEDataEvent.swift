/// An SSE event whose data a decoder reads: an ``SSEEvent``, whose data is a `String`, or an
/// ``SSEBatch/Event``, whose data is the bytes that arrived. The dialect decoders take either and
/// give the same events; from a batch event they parse the JSON where it lies, making no `String`.
///
/// ```swift
/// var decoder = AnthropicDecoder()
/// for item in batch { if case .event(let event) = item { handle(decoder.decode(event)) } }
/// ```
public protocol SSEDataEvent: Sendable {
    /// The `event` field, or `"message"` when the block had none.
    var type: String { get }
    /// Calls `body` with the event's data as UTF-8 bytes (a batch event's are not validated yet).
    func withDataBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
}

extension SSEEvent: SSEDataEvent {
    public func withDataBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var data = data
        return try data.withUTF8(body)
    }
}

extension SSEBatch.Event: SSEDataEvent {
    public func withDataBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try dataBytes.withUnsafeBufferPointer(body)
    }
}
