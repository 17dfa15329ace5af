public import CadenceCore

/// The connection banner over a streaming answer, as a pure state machine.
///
/// - `AnswerUpdate/reconnecting(attempt:after:)` shows "Reconnecting (attempt n)…" with the time
///   the attempt starts;
/// - `AnswerUpdate/reconnected` shows "Reconnected", which dismisses itself
///   ``Configuration/reconnectedDuration`` (2 s) later;
/// - a terminal update removes a "Reconnecting" banner at once (the answer's own end state says
///   the rest) and lets a "Reconnected" banner finish its time.
///
/// Time is a `Duration` on any monotonic clock; nothing sleeps. When ``nextDeadline`` is set,
/// call ``tick(now:)`` at or after it.
///
/// ```swift
/// var banner = ConnectionBannerState()
/// banner.apply(.reconnecting(attempt: 1, after: .seconds(1)), now: .seconds(10))
/// banner.banner       // .reconnecting(attempt: 1, startsAt: .seconds(11))
/// banner.apply(.reconnected, now: .seconds(11))
/// banner.nextDeadline // .seconds(13)
/// banner.tick(now: .seconds(13))
/// banner.banner       // nil
/// ```
public struct ConnectionBannerState: Sendable, Hashable {
    /// Tuning.
    ///
    /// ```swift
    /// let banner = ConnectionBannerState(configuration: .init(reconnectedDuration: .seconds(3)))
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// How long "Reconnected" stays up.
        public var reconnectedDuration: Duration

        public init(reconnectedDuration: Duration = .seconds(2)) {
            self.reconnectedDuration = reconnectedDuration
        }

        /// 2 s.
        public static let standard = Configuration()
    }

    /// What the banner says.
    ///
    /// ```swift
    /// switch state.banner {
    /// case .reconnecting(let attempt, _): label = "Reconnecting (attempt \(attempt))…"
    /// case .reconnected: label = "Reconnected"
    /// case nil: label = nil
    /// }
    /// ```
    public enum Banner: Sendable, Hashable {
        /// The connection broke; connection attempt `attempt` starts at `startsAt`.
        case reconnecting(attempt: Int, startsAt: Duration)
        /// A new connection is open.
        case reconnected
    }

    public let configuration: Configuration
    /// The banner to show, or `nil` for none.
    public private(set) var banner: Banner?
    /// When the current banner dismisses itself, if it does.
    public private(set) var nextDeadline: Duration?

    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
    }

    /// Feeds an answer update received at `now`; updates that do not concern the connection are ignored.
    /// Returns whether ``banner`` changed.
    @discardableResult
    public mutating func apply(_ update: AnswerUpdate, now: Duration) -> Bool {
        let before = banner
        switch update {
        case .reconnecting(let attempt, let delay):
            banner = .reconnecting(attempt: attempt, startsAt: now + delay)
            nextDeadline = nil
        case .reconnected:
            banner = .reconnected
            nextDeadline = now + configuration.reconnectedDuration
        case .completed, .failed, .cancelled:
            answerEnded()
        case .textAppended, .reasoningAppended, .refusalAppended, .toolCallReceived, .sourcesMerged, .stageChanged:
            break
        }
        _ = tick(now: now)
        return banner != before
    }

    /// The answer ended (its terminal update, which needs no time): removes a "Reconnecting" banner.
    /// Returns whether ``banner`` changed.
    @discardableResult
    public mutating func answerEnded() -> Bool {
        guard case .reconnecting = banner else { return false }
        banner = nil
        nextDeadline = nil
        return true
    }

    /// Time passed: dismisses "Reconnected" once its time is up. Returns whether ``banner`` changed.
    @discardableResult
    public mutating func tick(now: Duration) -> Bool {
        guard let deadline = nextDeadline, now >= deadline else { return false }
        banner = nil
        nextDeadline = nil
        return true
    }
}
