public import CadenceCore

/// A model provider's streaming chat API.
///
/// ```swift
/// let provider = ModelProvider(kind: .openAI, baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2")
/// ```
public struct ModelProvider: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// OpenAI Chat Completions and every OpenAI-compatible server (Ollama `/v1`, llama.cpp, vLLM, Groq, …).
        case openAI = "openai"
        /// OpenAI Responses (`POST /responses`), and the servers that copy it.
        case openAIResponses = "openai-responses"
        /// Anthropic Messages.
        case anthropic
        /// Google Gemini `streamGenerateContent?alt=sse`.
        case gemini
        /// Ollama's native `/api/chat` (NDJSON).
        case ollama

        /// The base URL used when none is given.
        public var defaultBaseURL: String {
            switch self {
            case .openAI, .openAIResponses: "https://api.openai.com/v1"
            case .anthropic: "https://api.anthropic.com"
            case .gemini: "https://generativelanguage.googleapis.com"
            case .ollama: "http://127.0.0.1:11434"
            }
        }

        /// The environment variable the API key is read from when none is given.
        public var apiKeyVariable: String? {
            switch self {
            case .openAI, .openAIResponses: "OPENAI_API_KEY"
            case .anthropic: "ANTHROPIC_API_KEY"
            case .gemini: "GEMINI_API_KEY"
            case .ollama: nil
            }
        }

        /// The stream format this API answers in.
        public var dialect: ModelDialect {
            switch self {
            case .openAI: .openAIChat
            case .openAIResponses: .openAIResponses
            case .anthropic: .anthropic
            case .gemini: .gemini
            case .ollama: .ollama
            }
        }
    }

    public var kind: Kind
    public var baseURL: String
    public var model: String
    /// Never printed: ``description`` and errors leave it out.
    public var apiKey: String?
    /// The most tokens to generate (Anthropic requires one).
    public var maxTokens: Int
    /// An optional system prompt.
    public var system: String?

    public init(
        kind: Kind, baseURL: String? = nil, model: String, apiKey: String? = nil, maxTokens: Int = 1024,
        system: String? = nil
    ) {
        self.kind = kind
        let base = baseURL ?? kind.defaultBaseURL
        self.baseURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.model = model
        self.apiKey = apiKey
        self.maxTokens = maxTokens
        self.system = system
    }
}

extension ModelProvider: CustomStringConvertible {
    public var description: String {
        "\(kind.rawValue) \(model) at \(baseURL)\(apiKey == nil ? "" : " (API key set)")"
    }
}
