/// Which timeout ended an answer.
///
/// ```swift
/// if case .completed(let completion) = update, completion.reason == .timedOut {
///     print("Stopped early:", completion.timeout?.name ?? "")
/// }
/// ```
public enum AnswerTimeout: Sendable, Hashable, CaseIterable {
    /// No new content for ``ReliabilityConfiguration/idleTimeout``.
    case idle
    /// No byte at all for ``ReliabilityConfiguration/byteIdleTimeout``, and the stream could not resume.
    case byteIdle
    /// No token within ``ReliabilityConfiguration/firstTokenTimeout``.
    case firstToken
    /// The answer took longer than ``ReliabilityConfiguration/overallTimeout``.
    case overall

    /// A short name for messages: "idle timeout", "first-token timeout", …
    public var name: String {
        switch self {
        case .idle: "idle timeout"
        case .byteIdle: "connection idle timeout"
        case .firstToken: "first-token timeout"
        case .overall: "overall timeout"
        }
    }

    /// This timeout's length in `configuration`.
    public func limit(in configuration: ReliabilityConfiguration) -> Duration? {
        switch self {
        case .idle: configuration.idleTimeout
        case .byteIdle: configuration.byteIdleTimeout
        case .firstToken: configuration.firstTokenTimeout
        case .overall: configuration.overallTimeout
        }
    }

    /// The user-readable message of an answer this timeout ended before any text arrived.
    func emptyAnswerMessage(limit: Duration) -> String {
        let length = limit.readableDescription
        return switch self {
        case .idle: "No answer arrived: the server sent nothing new for \(length) (idle timeout). Please try again."
        case .byteIdle:
            "No answer arrived: the connection was silent for \(length) and could not be resumed. Please try again."
        case .firstToken:
            "No answer arrived: the server sent no text within \(length) (first-token timeout). Please try again."
        case .overall: "No answer arrived within \(length) (overall timeout). Please try again."
        }
    }
}

extension Duration {
    /// "120 s", "1.5 s", "250 ms": short and exact enough for messages.
    var readableDescription: String {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
