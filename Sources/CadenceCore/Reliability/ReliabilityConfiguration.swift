/// The timeouts and retry policy of one answer stream, read by ``AnswerStreamMachine``.
///
/// Every timeout is optional (`nil` turns it off) and none resets another:
/// - ``idleTimeout`` runs from the last piece of *content* (any event except `: flush-tokens`);
///   keepalives do not reset it, so a server that only sends keepalives cannot hang the client.
///   When it passes on an open connection, the stream first resumes once on a new connection (a
///   stuck proxy is the usual cause, and the server may have the rest); if that connection brings
///   no content within another `idleTimeout`, the answer ends as timed out, its partial text kept.
/// - ``byteIdleTimeout`` runs from the last byte of any kind on the current connection, keepalives
///   included. It catches a dead connection, so it is handled like a dropped connection: the stream
///   resumes when it can, and only otherwise ends as a timeout.
/// - ``firstTokenTimeout`` runs from the start until the first non-empty token (or reasoning,
///   refusal or tool call: the model has begun).
/// - ``overallTimeout`` runs from the start and is never reset; it bounds backoff waits too.
///
/// ```swift
/// var configuration = ReliabilityConfiguration()       // 120 s idle, 45 s byte-idle, 60 s first token, 360 s overall
/// configuration.maxAttempts = 5
/// let polling = ReliabilityConfiguration.polling       // one 30 s safety timeout, never reset
/// ```
public struct ReliabilityConfiguration: Sendable, Hashable {
    /// How long the answer may go without new content (seed 000: 120 s), resuming once in between.
    public var idleTimeout: Duration?
    /// How long a connection may go without any byte. The default, 45 s, is three missed keepalives
    /// of the reference server (it sends `: keepalive` every 15 s while quiet), so it only fires on a
    /// connection that is really dead, well before the 120 s content idle timeout.
    public var byteIdleTimeout: Duration?
    /// How long the first token may take, counted from the start.
    public var firstTokenTimeout: Duration?
    /// How long the whole answer may take, counted from the start, including every retry wait.
    public var overallTimeout: Duration?
    /// Connection attempts in a row without progress (the first connection included). A connection
    /// that delivers a new event starts the count again at 1.
    public var maxAttempts: Int
    /// The ceiling of the first retry's wait; each further retry doubles it, up to ``backoffMax``.
    public var backoffBase: Duration
    public var backoffMax: Duration
    /// The longest `Retry-After` the client will honour.
    public var retryAfterCap: Duration
    /// The message of the failure when a timeout ends an answer with no text at all; `nil` gives a
    /// message naming the timeout and its length.
    public var emptyTimeoutMessage: String?

    public init(
        idleTimeout: Duration? = .seconds(120),
        byteIdleTimeout: Duration? = .seconds(45),
        firstTokenTimeout: Duration? = .seconds(60),
        overallTimeout: Duration? = .seconds(360),
        maxAttempts: Int = 3,
        backoffBase: Duration = .milliseconds(500),
        backoffMax: Duration = .seconds(8),
        retryAfterCap: Duration = .seconds(30),
        emptyTimeoutMessage: String? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.byteIdleTimeout = byteIdleTimeout
        self.firstTokenTimeout = firstTokenTimeout
        self.overallTimeout = overallTimeout
        self.maxAttempts = max(1, maxAttempts)
        self.backoffBase = backoffBase
        self.backoffMax = backoffMax
        self.retryAfterCap = retryAfterCap
        self.emptyTimeoutMessage = emptyTimeoutMessage
    }

    /// The polling chat of seed 003: one 30 s safety timeout started once and never reset by
    /// chunks; partial text is kept when it fires, and only an empty answer fails, with the seed's
    /// words. The polling transport itself keeps polling through transient errors.
    public static let polling = ReliabilityConfiguration(
        idleTimeout: nil,
        byteIdleTimeout: nil,
        firstTokenTimeout: nil,
        overallTimeout: .seconds(30),
        emptyTimeoutMessage: "I'm having trouble responding right now. Please try again."
    )

    /// The wait before connection attempt `attempt` (2 for the first retry).
    ///
    /// A server's `Retry-After` wins, capped at ``retryAfterCap``. Otherwise the wait uses *equal
    /// jitter*: with `ceiling = min(backoffMax, backoffBase × 2^(attempt − 2))`, the wait is
    /// `ceiling / 2 + jitter × ceiling / 2`. Half the ceiling is always waited, so a reconnect never
    /// hammers a failing server, and the other half is spread so many clients do not retry together.
    ///
    /// - Parameters:
    ///   - attempt: the connection attempt about to be made, from 2 (the first retry).
    ///   - retryAfter: the wait the server asked for, if it asked.
    ///   - jitter: a number in `0..<1`, from the machine's random-number generator.
    public func retryDelay(beforeAttempt attempt: Int, retryAfter: Duration?, jitter: Double) -> Duration {
        if let retryAfter { return max(.zero, min(retryAfter, retryAfterCap)) }
        let doublings = min(max(attempt - 2, 0), 30)
        let ceiling = min(backoffMax, backoffBase * (1 << doublings))
        let half = ceiling / 2
        return half + half * min(max(jitter, 0), 1)
    }
}
