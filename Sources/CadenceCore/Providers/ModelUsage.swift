/// Token counts reported by a provider.
///
/// `inputTokens` includes cached input, whatever the provider's own convention (Anthropic reports
/// cache reads apart; they are added in). Optional fields are `nil` when the provider did not say.
///
/// ```swift
/// let usage = ModelUsage(inputTokens: 14, outputTokens: 30, totalTokens: 44)
/// usage.totalTokens  // 44
/// ```
public struct ModelUsage: Sendable, Hashable {
    /// Prompt tokens, cached ones included.
    public var inputTokens: Int
    /// Generated tokens, reasoning included when the provider counts it there.
    public var outputTokens: Int
    /// Generated tokens spent on reasoning, when reported.
    public var reasoningTokens: Int?
    /// Prompt tokens served from the provider's cache, when reported.
    public var cachedInputTokens: Int?
    /// The provider's total, when reported.
    public var totalTokens: Int?

    public init(
        inputTokens: Int = 0,
        outputTokens: Int = 0,
        reasoningTokens: Int? = nil,
        cachedInputTokens: Int? = nil,
        totalTokens: Int? = nil
    ) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.reasoningTokens = reasoningTokens
        self.cachedInputTokens = cachedInputTokens
        self.totalTokens = totalTokens
    }
}

extension ModelUsage {
    /// Usage as OpenAI's APIs report it, with their names for the two counts: Chat Completions says
    /// `prompt_tokens` and `completion_tokens`, Responses `input_tokens` and `output_tokens`. Each
    /// count has a `…_details` object beside it, with `cached_tokens` and `reasoning_tokens`.
    init(openAI usage: JSONValue, input: String, output: String) {
        self.init(
            inputTokens: usage[input]?.intValue ?? 0,
            outputTokens: usage[output]?.intValue ?? 0,
            reasoningTokens: usage[output + "_details"]?["reasoning_tokens"]?.intValue,
            cachedInputTokens: usage[input + "_details"]?["cached_tokens"]?.intValue,
            totalTokens: usage["total_tokens"]?.intValue
        )
    }
}
