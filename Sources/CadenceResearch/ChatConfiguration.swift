public import CadenceCore

/// The limits of one chat answer, read by ``ChatMachine``.
///
/// ```swift
/// var configuration = ChatConfiguration()   // no output cap, 60 s model idle timeout,
///                                           // 10 min and 200,000 tokens per answer
/// configuration.maxOutputTokens = 800       // sent to the model with each request
/// ```
public struct ChatConfiguration: Sendable, Hashable {
    /// The most tokens the model may write for one answer, sent in the request in the provider's own
    /// field (`max_tokens`, `max_output_tokens`, `maxOutputTokens`, `num_predict`); `nil` sends none
    /// (Anthropic, which requires one, gets the provider's default).
    public var maxOutputTokens: Int?
    /// How long the model call may go without sending anything before it is closed and the answer
    /// ends with `model_timeout`.
    public var modelIdleTimeout: Duration
    /// Attempts and backoff for a model call that fails before it sent anything (429, 5xx, refused
    /// connections). Only `ReliabilityConfiguration/maxAttempts`, the backoff and the `Retry-After`
    /// cap are read.
    public var retry: ReliabilityConfiguration
    /// The longest an answer may take, from its start; past it, the answer ends with an `error` event
    /// whose code is `budget_exceeded`, after the text so far.
    public var maxAnswerTime: Duration
    /// The most model tokens (input plus output, as the model reports them) an answer may use; past
    /// it, the answer ends with `budget_exceeded` as for time.
    public var maxAnswerTokens: Int

    public init(
        maxOutputTokens: Int? = nil,
        modelIdleTimeout: Duration = .seconds(60),
        retry: ReliabilityConfiguration = ReliabilityConfiguration(maxAttempts: 3),
        maxAnswerTime: Duration = .seconds(600),
        maxAnswerTokens: Int = 200_000
    ) {
        self.maxOutputTokens = maxOutputTokens.map { max(1, $0) }
        self.modelIdleTimeout = modelIdleTimeout
        self.retry = retry
        self.maxAnswerTime = maxAnswerTime
        self.maxAnswerTokens = maxAnswerTokens
    }
}
