import NIOConcurrencyHelpers

/// The server's ``RequestRateLimit``, shared by every connection: it reads the time from the server's
/// clock and answers a refusal as `429` with `Retry-After`.
final class SubjectRateLimiter: Sendable {
    private let limit: NIOLockedValueBox<RequestRateLimit>
    private let elapsed: @Sendable () -> Duration

    init(perMinute: Int, clock: any Clock<Duration>) {
        limit = NIOLockedValueBox(RequestRateLimit(perMinute: perMinute))
        elapsed = Self.stopwatch(clock)
    }

    /// Counts a request from `subject`; returns the 429 to send if it is over the limit.
    func admit(_ subject: String) -> APIError? {
        let now = elapsed()
        let decision = limit.withLockedValue { $0.request(from: subject, at: now) }
        guard case .refuse(let seconds) = decision else { return nil }
        let perMinute = limit.withLockedValue { $0.perMinute }
        return APIError(
            status: .tooManyRequests, code: "rate_limited",
            message: "more than \(perMinute) requests a minute; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)])
    }

    /// The time since now on `clock`, as a duration (a generic clock's instants cannot leave it).
    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
