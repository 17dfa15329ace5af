/// Where an ``SSEDecoder`` puts the items it decodes: an array of ``SSEItem``s, whose events own
/// their data as a `String`, or an ``SSEBatch``, which keeps the data's bytes.
///
/// The decoder hands over each event's data and each comment's text as bytes that are valid only
/// during the call: a line of the chunk being decoded, or the decoder's own buffer.
protocol SSEItemSink {
    /// A dispatched event whose data (the data lines joined with LF, without the last LF) is `data`;
    /// an empty `type` stands for `"message"`.
    mutating func appendEvent(type: String, data: UnsafeBufferPointer<UInt8>, id: String)
    /// The same for an event whose data is in `buffer`, followed by one LF. The sink may take the
    /// buffer, leaving an empty one (with some capacity) in its place.
    mutating func appendEvent(type: String, taking buffer: inout [UInt8], id: String)
    /// A comment line's text, after the colon and one leading space.
    mutating func appendComment(_ text: UnsafeBufferPointer<UInt8>)
    /// A valid `retry` field.
    mutating func appendRetry(_ milliseconds: Int)
}

extension Array: SSEItemSink where Element == SSEItem {
    mutating func appendEvent(type: String, data: UnsafeBufferPointer<UInt8>, id: String) {
        append(.event(SSEEvent(type: type.isEmpty ? "message" : type, data: String(decodingUTF8: data), id: id)))
    }

    mutating func appendEvent(type: String, taking buffer: inout [UInt8], id: String) {
        buffer.withUnsafeBufferPointer {
            appendEvent(type: type, data: UnsafeBufferPointer(rebasing: $0.dropLast()), id: id)
        }
    }

    mutating func appendComment(_ text: UnsafeBufferPointer<UInt8>) {
        append(.comment(String(decodingUTF8: text)))
    }

    mutating func appendRetry(_ milliseconds: Int) {
        append(.retry(milliseconds))
    }
}
