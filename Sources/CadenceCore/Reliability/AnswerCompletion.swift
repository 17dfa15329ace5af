/// A finished answer: its whole text, merged sources, follow-ups and metadata.
///
/// ```swift
/// if case .completed(let completion) = update {
///     print(completion.text)
///     if completion.reason == .timedOut { print("(incomplete: \(completion.timeout!.name))") }
/// }
/// ```
public struct AnswerCompletion: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The server sent `complete` and the stream then closed (or went idle).
        case completed
        /// A timeout ended the stream; the text is what arrived before it.
        case timedOut
    }

    public var reason: Reason
    /// Which timeout, when ``reason`` is ``Reason/timedOut``.
    public var timeout: AnswerTimeout?
    /// Every token, in order, each exactly once.
    public var text: String
    /// All sources from `sources_ready` and `complete`, deduplicated by URL.
    public var sources: [Source]
    public var followUps: [String]
    public var metadata: [String: JSONValue]
    /// Why the model stopped, for an answer straight from a model provider (``FinishReason/length``
    /// is an answer cut at the token limit); `nil` for a research server's answers.
    public var finishReason: FinishReason?
    /// The model's visible reasoning, each piece exactly once; empty when it showed none.
    public var reasoning: String
    /// The model's refusal, kept apart from ``text``; empty when it did not refuse.
    public var refusal: String
    /// The tool calls the model made, in order.
    public var toolCalls: [ToolCall]

    public init(
        reason: Reason, timeout: AnswerTimeout? = nil, text: String, sources: [Source] = [],
        followUps: [String] = [], metadata: [String: JSONValue] = [:], finishReason: FinishReason? = nil,
        reasoning: String = "", refusal: String = "", toolCalls: [ToolCall] = []
    ) {
        self.reasoning = reasoning
        self.refusal = refusal
        self.toolCalls = toolCalls
        self.reason = reason
        self.timeout = timeout
        self.text = text
        self.sources = sources
        self.followUps = followUps
        self.metadata = metadata
        self.finishReason = finishReason
    }
}
