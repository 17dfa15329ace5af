/// When ``TerminalChatApp`` ends on its own, besides the reader's Ctrl-C (when idle) and Ctrl-D
/// (on an empty line).
///
/// ```swift
/// let app = TerminalChatApp(chat: chat, terminal: terminal, exit: .afterAnswers)   // a recorded demo
/// ```
public struct ExitPolicy: Sendable, Hashable {
    /// Leave once every answer has finished and been fully shown.
    public var exitsWhenIdle: Bool

    public init(exitsWhenIdle: Bool) {
        self.exitsWhenIdle = exitsWhenIdle
    }

    /// Stay until the reader leaves.
    public static let interactive = ExitPolicy(exitsWhenIdle: false)
    /// Leave when the answers are done (scripts, recordings).
    public static let afterAnswers = ExitPolicy(exitsWhenIdle: true)
}

/// Why ``TerminalChatApp/run(clock:frameInterval:)`` returned.
///
/// ```swift
/// if try await app.run(clock: ContinuousClock()) == .interrupted { exitCode = 130 }
/// ```
public enum TerminalExit: Sendable, Hashable {
    /// Ctrl-C with nothing streaming.
    case interrupted
    /// Ctrl-D on an empty input line.
    case endOfInput
    /// The terminal's input closed.
    case inputClosed
    /// Every answer finished, with ``ExitPolicy/afterAnswers``.
    case idle
}
