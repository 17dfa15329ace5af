import NIOConcurrencyHelpers

/// A gate that the ``TimestampEngine``s of a node wait on, opened once by the benchmark: the start
/// gate holds every answer until its readers are connected (the `go` line on a node's standard
/// input), and the end gate holds the `complete` of answers that ask for it (`end`), so their streams
/// stay open with the whole text delivered. Every engine waiting on a gate goes at the same instant.
package final class EngineGate: Sendable {
    private struct State {
        var openedAt: ContinuousClock.Instant?
        var waiters: [CheckedContinuation<ContinuousClock.Instant, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Lets every waiting engine (and every later one) go; the first call decides the instant.
    package func open() {
        let (instant, waiters) = state.withLockedValue { state in
            if state.openedAt == nil { state.openedAt = ContinuousClock.now }
            defer { state.waiters = [] }
            return (state.openedAt!, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: instant) }
    }

    /// Waits until the gate is open and returns the instant it opened.
    package func wait() async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            let openedAt = state.withLockedValue { state -> ContinuousClock.Instant? in
                if state.openedAt == nil { state.waiters.append(continuation) }
                return state.openedAt
            }
            if let openedAt { continuation.resume(returning: openedAt) }
        }
    }
}
