/// Spaces the requests to one host at least `interval` apart, as the host's terms ask (PubMed: 3
/// a second, 10 with a key; arXiv: one every 3 seconds), on an injected clock.
///
/// Each request reserves the next free slot and sleeps until it; a cancelled wait gives nothing
/// back, so a pacer never lets requests closer together than its interval.
///
/// ```swift
/// let pacer = RequestPacer(interval: .seconds(3), clock: ContinuousClock())
/// try await pacer.admit()   // at once
/// try await pacer.admit()   // 3 s later
/// ```
public actor RequestPacer {
    public nonisolated let interval: Duration
    private let now: @Sendable () -> Duration
    private let sleep: @Sendable (_ until: Duration) async throws -> Void
    /// The earliest time (since the pacer was made) the next request may go.
    private var nextSlot: Duration = .zero

    public init<C: Clock<Duration>>(interval: Duration, clock: C) {
        self.interval = interval
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: start.advanced(by: deadline), tolerance: nil) }
    }

    /// Waits for this request's turn.
    public func admit() async throws {
        let current = now()
        let slot = max(current, nextSlot)
        nextSlot = slot + interval
        if slot > current { try await sleep(slot) }
    }
}
