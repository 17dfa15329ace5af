import Foundation

/// A test clock that moves only when told to (``advance(by:)``), and whose `sleep` returns at once, having moved time to the deadline plus `lateBy`
/// (zero unless a test simulates slow frames). It records every deadline slept until.
final class StepClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol, Hashable {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current: Instant
    private var recorded: [Duration] = []
    /// How far past each deadline a sleep wakes.
    private let lateness: @Sendable (Int) -> Duration

    init(start: Duration = .seconds(100), lateness: @escaping @Sendable (Int) -> Duration = { _ in .zero }) {
        current = Instant(offset: start)
        self.lateness = lateness
    }

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }
    var deadlines: [Duration] { lock.withLock { recorded } }

    /// Moves time forward, as a manual clock would.
    func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(deadline.offset)
            let woken = deadline.advanced(by: lateness(recorded.count))
            if current < woken { current = woken }
        }
    }
}
