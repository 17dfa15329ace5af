public import CadenceCore

/// What the decoders of the SSE dialects have in common: each decodes an event from its `String`
/// (`SSEEvent`) or from its bytes (`SSEBatch.Event`), which must give the same events.
///
/// ```swift
/// var decoder = ModelDialect.anthropic.makeSSEDialectDecoder()
/// let events = decoder?.decode(SSEEvent(type: "ping", data: "{\"type\":\"ping\"}"))
/// ```
public protocol SSEDialectDecoder {
    mutating func decode(_ event: some SSEDataEvent) -> [ModelEvent]
    mutating func finish() -> [ModelEvent]
}

extension OpenAIChatDecoder: SSEDialectDecoder {}
extension OpenAIResponsesDecoder: SSEDialectDecoder {}
extension AnthropicDecoder: SSEDialectDecoder {}
extension GeminiDecoder: SSEDialectDecoder {}

extension ModelDialect {
    /// A new decoder of this dialect's SSE events; `nil` for Ollama, whose lines are not SSE.
    public func makeSSEDialectDecoder() -> (any SSEDialectDecoder)? {
        switch self {
        case .openAIChat: OpenAIChatDecoder()
        case .openAIResponses: OpenAIResponsesDecoder()
        case .anthropic: AnthropicDecoder()
        case .gemini: GeminiDecoder()
        case .ollama: nil
        }
    }
}
