/// When a model's visible reasoning began and ended, on the reader's clock: what a chat shows as
/// "thought for 4 s" once the answer itself starts.
///
/// Feed it every update with the time it arrived. The first ``AnswerUpdate/reasoningAppended(_:)``
/// opens the span; the first answer output after it (text, a refusal, a tool call) or the answer's
/// end closes it. Nothing after that changes it.
///
/// ```swift
/// var span = ReasoningSpan()
/// span.note(.reasoningAppended("The user asks…"), at: .seconds(1))
/// span.note(.textAppended("Hello"), at: .milliseconds(5_200))
/// span.summary   // "thought for 4 s"
/// ```
public struct ReasoningSpan: Sendable, Hashable {
    /// When the first reasoning arrived.
    public private(set) var start: Duration?
    /// When the answer began after the reasoning (or ended without beginning).
    public private(set) var end: Duration?

    public init() {}

    /// A closed span that lasted `duration`: one read back from history, where only its length was kept.
    public init(duration: Duration) {
        start = .zero
        end = duration
    }

    /// Notes `update`, which arrived at `now`. Returns whether the span opened or closed.
    @discardableResult
    public mutating func note(_ update: AnswerUpdate, at now: Duration) -> Bool {
        guard end == nil else { return false }
        switch update {
        case .reasoningAppended where start == nil:
            start = now
            return true
        case .textAppended, .refusalAppended, .toolCallReceived, .completed, .failed, .cancelled:
            guard start != nil else { return false }
            end = now
            return true
        default:
            return false
        }
    }

    /// Whether the model is reasoning now: reasoning arrived, and nothing of the answer yet.
    public var isOpen: Bool { start != nil && end == nil }

    /// How long the model reasoned, once the span closed.
    public var duration: Duration? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// "thought for N s" (whole seconds, at least 1) once the span closed; "thought" when its times
    /// are unknown (an answer recorded without them).
    public var summary: String {
        Self.summary(duration)
    }

    /// "thought for N s" for `duration` (whole seconds, at least 1), or "thought" without one.
    public static func summary(_ duration: Duration?) -> String {
        guard let duration else { return "thought" }
        let seconds = duration.seconds
        return "thought for \(max(1, Int(seconds.rounded()))) s"
    }
}
