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
        var frame = "event: \(event.kind.wireType)\n"
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
public enum ResearchEventDecoder {
    /// The research event an SSE item carries, or `nil` for items that carry none
    /// (`: keepalive` and other comments, `retry:`).
    public static func decode(_ item: SSEItem) throws(ResearchDecodingError) -> ResearchEvent? {
        switch item {
        case .event(let event): return try decode(event)
        case .comment(let text): return text == "flush-tokens" ? ResearchEvent(kind: .flushTokens) : nil
        case .retry: return nil
        }
    }

    /// The research event in one SSE event. A missing JSON `"sequence"` falls back to the SSE `id`
    /// when it is an integer JSON numbers hold exactly (up to 9×10¹⁵).
    public static func decode(_ event: SSEEvent) throws(ResearchDecodingError) -> ResearchEvent {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: event.data)
        } catch {
            throw ResearchDecodingError(.invalidJSON, eventType: event.type, detail: error.message)
        }
        var decoded: ResearchEvent
        do {
            decoded = try ResearchEvent(json: json)
        } catch {
            throw ResearchDecodingError(error.code, eventType: error.eventType ?? event.type, detail: error.detail)
        }
        // Only an `id` that a JSON `"sequence"` could carry too, so the event frames and decodes the same again.
        if decoded.sequence == nil, let id = Int(event.id), JSONValue.number(Double(id)).intValue == id {
            decoded.sequence = id
        }
        return decoded
    }
}
