/// The wire format of a model provider's streaming API.
///
/// The raw value is the name used on the command line (`cadence decode --dialect anthropic`).
/// A client knows the dialect from the request it made; for a captured stream, ``detect(_:isComplete:)``
/// tells it from the content.
///
/// ```swift
/// ModelDialect(rawValue: "openai-chat")  // .openAIChat
/// ModelDialect.ollama.usesLineFraming    // true: NDJSON, not SSE
/// ```
public enum ModelDialect: String, Sendable, Hashable, CaseIterable {
    /// OpenAI Chat Completions and the OpenAI-compatible servers (Ollama `/v1`, llama.cpp, vLLM, Groq,
    /// DeepSeek …), including the legacy Completions format. SSE, ends on `data: [DONE]`.
    case openAIChat = "openai-chat"
    /// OpenAI Responses: typed `event:` names, ends on `response.completed`, `incomplete` or `failed`.
    case openAIResponses = "openai-responses"
    /// Anthropic Messages: `message_start` … `message_stop`.
    case anthropic
    /// Gemini `streamGenerateContent?alt=sse`: ends at the end of the stream.
    case gemini
    /// Ollama native `/api/chat` and `/api/generate`: NDJSON, ends on `"done": true`.
    case ollama

    /// Whether the stream is newline-delimited JSON rather than server-sent events.
    public var usesLineFraming: Bool {
        self == .ollama
    }

    /// A fresh decoder for this dialect.
    func makeDecoder() -> any ProviderPayloadDecoder {
        switch self {
        case .openAIChat: OpenAIChatDecoder()
        case .openAIResponses: OpenAIResponsesDecoder()
        case .anthropic: AnthropicDecoder()
        case .gemini: GeminiDecoder()
        case .ollama: OllamaDecoder()
        }
    }
}
