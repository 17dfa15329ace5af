import NIOConcurrencyHelpers

/// Holds every answer's engine until the readers are connected: the benchmark opens it once (the
/// `go` line on a node's standard input), and every engine waiting on it starts at the same instant.
final class StartGate: Sendable {
    private struct State {
        var openedAt: ContinuousClock.Instant?
        var waiters: [CheckedContinuation<ContinuousClock.Instant, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Lets every waiting engine (and every later one) go; the first call decides the start instant.
    func open() {
        let (instant, waiters) = state.withLockedValue { state in
            if state.openedAt == nil { state.openedAt = ContinuousClock.now }
            defer { state.waiters = [] }
            return (state.openedAt!, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: instant) }
    }

    /// Waits until the gate is open and returns the instant it opened.
    func wait() async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            let openedAt = state.withLockedValue { state -> ContinuousClock.Instant? in
                if state.openedAt == nil { state.waiters.append(continuation) }
                return state.openedAt
            }
            if let openedAt { continuation.resume(returning: openedAt) }
        }
    }
}
