/// One change to an answer, in order, as a UI or a command consumes it.
///
/// An answer's updates always end with exactly one terminal update (``completed(_:)``,
/// ``failed(_:)`` or ``cancelled(partialText:)``), and nothing follows it.
///
/// ```swift
/// switch update {
/// case .textAppended(let text): print(text, terminator: "")
/// case .reconnecting(let attempt, let delay): banner = "Reconnecting (attempt \(attempt)) in \(delay)…"
/// case .reconnected: banner = nil
/// case .completed(let completion): save(completion.text)
/// case .failed(let failure): show(failure.message, keeping: failure.partialText)
/// default: break
/// }
/// ```
///
/// The large and rare payloads (a stage, a tool call, a completion, a failure) are boxed (`indirect`), so an update
/// takes 32 bytes instead of 104: an `AsyncStream` keeps the largest buffer it ever needed, and an
/// answer that arrives faster than its reader takes it leaves room for a thousand updates or more.
public enum AnswerUpdate: Sendable, Hashable {
    /// New answer text, to append to what came before. Never repeats text already delivered.
    case textAppended(String)
    /// A piece of the model's visible reasoning, to append to the reasoning before it. Kept apart
    /// from the answer text, and, like it, never repeated.
    case reasoningAppended(String)
    /// A piece of the model's refusal, to append to the refusal before it: shown as a refusal, not
    /// as answer text.
    case refusalAppended(String)
    /// A tool call the model made, whole. Cadence does not run tools.
    indirect case toolCallReceived(ToolCall)
    /// Every source so far, deduplicated by URL, sent only when the list changed.
    case sourcesMerged([Source])
    /// A research stage event (tier, searching, planning, rounds, reflection, sources, synthesis).
    indirect case stageChanged(ResearchEvent.Kind)
    /// The connection broke; connection attempt `attempt` starts after `after`.
    case reconnecting(attempt: Int, after: Duration)
    /// A new connection is open after ``reconnecting(attempt:after:)``.
    case reconnected
    /// The answer ended with text: the server's completion, or a timeout that kept partial text.
    indirect case completed(AnswerCompletion)
    /// The answer failed; the failure keeps any partial text.
    indirect case failed(AnswerFailure)
    /// The answer was cancelled; `partialText` is everything received before.
    case cancelled(partialText: String)

    /// Whether this update ends the answer.
    public var isTerminal: Bool {
        switch self {
        case .completed, .failed, .cancelled: true
        case .textAppended, .reasoningAppended, .refusalAppended, .toolCallReceived, .sourcesMerged, .stageChanged,
            .reconnecting, .reconnected:
            false
        }
    }
}
