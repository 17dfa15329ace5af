/// How an answer ended: with text, with a failure, by the user's cancel, or interrupted because
/// the process producing it died.
///
/// Every part of Cadence that cares how an answer ended speaks this type: a store records it (as
/// its stored state), a view model shows it, the command turns it into its exit status, and the
/// server counts it. Each keeps its own spelling of it where that spelling is an interface (a
/// database column, a metric label, an exit code), written as a mapping from this type.
///
/// ```swift
/// for await update in stream {
///     if let ending = AnswerEnding(update) { print(ending.text, ending.isTimedOut ? "(timed out)" : "") }
/// }
/// let restored = AnswerEnding.interrupted(partialText: "Half an ans")
/// ```
public enum AnswerEnding: Sendable, Hashable {
    /// Finished with text: the server's completion, or a timeout that kept partial text
    /// (``AnswerCompletion/reason`` says which).
    case completed(AnswerCompletion)
    /// Failed; the failure keeps any partial text.
    case failed(AnswerFailure)
    /// Cancelled by the user; `partialText` is what arrived before.
    case cancelled(partialText: String)
    /// Found unfinished after the process producing or recording it died (an answer read back from
    /// a store, or a server node whose lease expired); `partialText` is the last text kept.
    case interrupted(partialText: String)

    /// The ending an answer's terminal update carries; `nil` for any other update.
    public init?(_ update: AnswerUpdate) {
        switch update {
        case .completed(let completion): self = .completed(completion)
        case .failed(let failure): self = .failed(failure)
        case .cancelled(let partialText): self = .cancelled(partialText: partialText)
        case .textAppended, .reasoningAppended, .refusalAppended, .toolCallReceived, .sourcesMerged, .stageChanged,
            .reconnecting, .reconnected:
            return nil
        }
    }

    /// The terminal update that carries this ending. An interruption has none of its own: it is
    /// delivered as ``AnswerUpdate/cancelled(partialText:)`` with its text.
    public var update: AnswerUpdate {
        switch self {
        case .completed(let completion): .completed(completion)
        case .failed(let failure): .failed(failure)
        case .cancelled(let partialText), .interrupted(let partialText): .cancelled(partialText: partialText)
        }
    }

    /// Whether a timeout ended the answer with the text that had arrived
    /// (``AnswerCompletion/Reason/timedOut``).
    public var isTimedOut: Bool {
        if case .completed(let completion) = self { completion.reason == .timedOut } else { false }
    }

    /// Whether the answer finished whole: completed, and not cut short by a timeout.
    public var isComplete: Bool {
        if case .completed(let completion) = self { completion.reason == .completed } else { false }
    }

    /// The answer's final text: whole once completed, the partial text otherwise.
    public var text: String {
        switch self {
        case .completed(let completion): completion.text
        case .failed(let failure): failure.partialText
        case .cancelled(let partialText), .interrupted(let partialText): partialText
        }
    }

    /// The model's reasoning, refusal and tool calls as the ending carries them (a cancellation or
    /// an interruption carries none).
    public var modelOutput: (reasoning: String, refusal: String, toolCalls: [ToolCall]) {
        switch self {
        case .completed(let completion): (completion.reasoning, completion.refusal, completion.toolCalls)
        case .failed(let failure): (failure.reasoning, failure.refusal, failure.toolCalls)
        case .cancelled, .interrupted: ("", "", [])
        }
    }
}
