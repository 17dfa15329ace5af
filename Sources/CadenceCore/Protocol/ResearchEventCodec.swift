/// Writes research events as SSE frames (server side).
///
/// ```swift
/// let frame = ResearchEventEncoder.frame(ResearchEvent(sequence: 1, kind: .token("Hi")))
/// // "event: token\nid: 1\ndata: {\"type\":\"token\",\"content\":\"Hi\",\"sequence\":1}\n\n"
/// ```
public enum ResearchEventEncoder {
    /// One SSE event: `event:`, `id:` (when sequenced) and a single `data:` line of JSON.
    public static func frame(_ event: ResearchEvent) -> String {
        if case .flushTokens = event.kind { return comment("flush-tokens") }
        var frame = ""
        let type = event.kind.wireType
        // A field ends at CR or LF: a type holding one (only an unknown event's can) would split
        // the frame, so it stays in the JSON alone, which is where the decoder reads it.
        if !type.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { frame += "event: \(type)\n" }
        if let sequence = event.sequence { frame += "id: \(sequence)\n" }
        // jsonText escapes CR and LF, so the payload is always one line.
        frame += "data: \(event.json.jsonText)\n\n"
        return frame
    }

    /// An SSE comment line such as `: keepalive`.
    public static func comment(_ text: String) -> String {
        ": \(text)\n\n"
    }
}

/// Turns decoded SSE items into research events (client side).
///
/// ```swift
/// var sse = SSEDecoder()
/// for item in try sse.feed(bytes) {
///     if let event = try ResearchEventDecoder.decode(item) { handle(event) }
/// }
/// ```
///
/// From an ``SSEBatch``, the JSON is read straight from each event's bytes, with no `String` made for it:
///
/// ```swift
/// var batch = SSEBatch()
/// try sse.feed(chunk, into: &batch)
/// for item in batch {
///     if let event = try ResearchEventDecoder.decode(item) { handle(event) }
/// }
/// batch.removeAll()
/// ```
public enum ResearchEventDecoder {
    /// The research event an SSE item carries, or `nil` for items that carry none
    /// (`: keepalive` and other comments, `retry:`).
    public static func decode(_ item: SSEItem) throws(ResearchDecodingError) -> ResearchEvent? {
        switch item {
        case .event(let event): return try decode(event)
        case .comment(let text): return decode(comment: text)
        case .retry: return nil
        }
    }

    /// The research event an item of an ``SSEBatch`` carries, or `nil` for items that carry none
    /// (`: keepalive` and other comments, `retry:`). The same as decoding the matching ``SSEItem``.
    @_disfavoredOverload  // `decode(.comment("…"))` still means an SSEItem
    public static func decode(_ item: SSEBatch.Item) throws(ResearchDecodingError) -> ResearchEvent? {
        switch item {
        case .event(let event): return try decode(event)
        case .comment(let text): return decode(comment: text)
        case .retry: return nil
        }
    }

    /// The research event in one SSE event. A missing JSON `"sequence"` falls back to the SSE `id`
    /// when it is an integer JSON numbers hold exactly (up to 9×10¹⁵).
    public static func decode(_ event: SSEEvent) throws(ResearchDecodingError) -> ResearchEvent {
        let json: JSONValue
        do { json = try JSONTextParser.parse(event.data) } catch { throw invalidJSON(error, eventType: event.type) }
        return try decode(json, eventType: event.type, id: event.id)
    }

    /// The research event in one event of an ``SSEBatch``, its JSON read from the event's bytes.
    /// The same as decoding the matching ``SSEEvent``.
    public static func decode(_ event: SSEBatch.Event) throws(ResearchDecodingError) -> ResearchEvent {
        let json: JSONValue
        do { json = try JSONTextParser.parse(event.dataBytes) } catch {
            throw invalidJSON(error, eventType: event.type)
        }
        return try decode(json, eventType: event.type, id: event.id)  // both made only if needed
    }

    private static func decode(comment text: String) -> ResearchEvent? {
        text == "flush-tokens" ? ResearchEvent(kind: .flushTokens) : nil
    }

    private static func invalidJSON(_ failure: JSONTextParser.Failure, eventType: String) -> ResearchDecodingError {
        ResearchDecodingError(.invalidJSON, eventType: eventType, detail: failure.message)
    }

    private static func decode(
        _ json: JSONValue, eventType: @autoclosure () -> String, id: @autoclosure () -> String
    ) throws(ResearchDecodingError) -> ResearchEvent {
        var decoded: ResearchEvent
        do {
            decoded = try ResearchEvent(json: json)
        } catch {
            throw ResearchDecodingError(error.code, eventType: error.eventType ?? eventType(), detail: error.detail)
        }
        // Only an `id` that a JSON `"sequence"` could carry too, so the event frames and decodes the same again.
        if decoded.sequence == nil, let id = Int(id()), JSONValue.number(Double(id)).intValue == id {
            decoded.sequence = id
        }
        return decoded
    }
}
