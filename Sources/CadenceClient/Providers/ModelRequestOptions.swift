/// Per-request settings for ``ModelClient/stream(_:options:)``.
///
/// ```swift
/// let plan = client.stream(turns, options: ModelRequestOptions(json: true))
/// ```
public struct ModelRequestOptions: Sendable, Hashable {
    /// Ask for a JSON object: `response_format: {"type": "json_object"}` on OpenAI-compatible servers,
    /// `"format": "json"` on Ollama's native API and `responseMimeType: application/json` on Gemini.
    /// Anthropic has no such switch; the prompt has to ask for JSON there.
    public var json: Bool
    /// Overrides the provider's ``ModelProvider/maxTokens`` for this request.
    public var maxTokens: Int?
    /// Sampling temperature, when set.
    public var temperature: Double?

    public init(json: Bool = false, maxTokens: Int? = nil, temperature: Double? = nil) {
        self.json = json
        self.maxTokens = maxTokens
        self.temperature = temperature
    }
}
