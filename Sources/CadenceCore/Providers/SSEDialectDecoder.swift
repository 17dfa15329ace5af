/// A decoder of one provider dialect that speaks server-sent events: each decodes an event from its
/// `String` (``SSEEvent``) or from its bytes (``SSEBatch/Event``), which give the same events.
///
/// ```swift
/// var decoder = ModelDialect.anthropic.makeSSEDialectDecoder()
/// let events = decoder?.decode(SSEEvent(type: "ping", data: "{\"type\":\"ping\"}"))
/// ```
public protocol SSEDialectDecoder {
    /// The events of one SSE event of the dialect's stream.
    mutating func decode(_ event: some SSEDataEvent) -> [ModelEvent]
    /// The events the end of the stream implies (a finish the stream never sent, say).
    mutating func finish() -> [ModelEvent]
}

extension OpenAIChatDecoder: SSEDialectDecoder {}
extension OpenAIResponsesDecoder: SSEDialectDecoder {}
extension AnthropicDecoder: SSEDialectDecoder {}
extension GeminiDecoder: SSEDialectDecoder {}

extension ModelDialect {
    /// A new decoder of this dialect's SSE events; `nil` for Ollama, whose lines are not SSE.
    public func makeSSEDialectDecoder() -> (any SSEDialectDecoder)? {
        makeDecoder() as? any SSEDialectDecoder
    }
}
