import NIOConcurrencyHelpers

/// The test clock: time moves only when a test says so, and nothing sleeps for real.
///
/// By default a sleep waits until the test advances the clock past its deadline, and the clock tells
/// the test when code sleeps on it, so a test can advance exactly after the code under test has
/// suspended (never before):
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(15)); print("woke") }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(15))   // prints "woke"
/// ```
///
/// A stepping clock (``stepping(start:lateness:sleepLimit:)``) instead lets other tasks run once and
/// then moves time to the deadline itself, for loops that sleep every frame (a frame ticker, a
/// terminal app): each frame comes at once, at its own time.
///
/// ```swift
/// let clock = ManualClock.stepping()
/// try await FrameTicker(clock: clock, interval: .milliseconds(16)).run { now in now < .milliseconds(80) }
/// ```
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Each waits for the pending sleeps' deadlines, and the number of sleeps begun so far, to satisfy its predicate.
        var watchers: [(predicate: @Sendable ([Instant], Int) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        /// Sleeps so far, for a stepping clock.
        var steps = 0
    }

    /// How a stepping clock's sleeps move time.
    private struct Stepping {
        let lateness: @Sendable (Int) -> Duration
        let sleepLimit: Int
    }

    private let state = NIOLockedValueBox(State())
    private let stepping: Stepping?

    /// A clock whose sleeps wait for ``advance(by:)``, starting at zero.
    public init() {
        stepping = nil
    }

    private init(start: Duration, stepping: Stepping) {
        self.stepping = stepping
        state.withLockedValue { $0.now = Instant(offset: start) }
    }

    /// A clock whose every sleep lets other tasks run once, then moves time to its deadline and returns.
    ///
    /// - Parameters:
    ///   - start: the time `now` starts at.
    ///   - lateness: how far past its deadline the n-th sleep (from 1) wakes: zero, unless a test
    ///     simulates slow frames.
    ///   - sleepLimit: the sleeps after which a sleep throws `CancellationError`, to end a loop that
    ///     would otherwise go on.
    public static func stepping(
        start: Duration = .zero, lateness: @escaping @Sendable (Int) -> Duration = { _ in .zero },
        sleepLimit: Int = 10_000
    ) -> ManualClock {
        ManualClock(start: start, stepping: Stepping(lateness: lateness, sleepLimit: sleepLimit))
    }

    public var now: Instant { state.withLockedValue { $0.now } }
    /// The sleeps waiting now.
    public var pendingSleeps: Int { state.withLockedValue { $0.sleepers.count } }
    /// The sleeps begun since the clock was made, woken, cancelled or still waiting.
    public var sleepsBegun: Int { state.withLockedValue { $0.nextID } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        // Counted as begun even when the task is already cancelled, so that a test can count every
        // timeout a piece of work started, whether or not it got to wait.
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try Task.checkCancellation()
        if let stepping {
            await Task.yield()
            try state.withLockedValue { state in
                state.steps += 1
                if state.steps > stepping.sleepLimit { throw CancellationError() }
                let woken = deadline.advanced(by: stepping.lateness(state.steps))
                if state.now < woken { state.now = woken }
            }
            return
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let woken = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                    if deadline <= state.now {
                        continuation.resume()
                        return []
                    }
                    // Cancelled before this lock was taken: the cancel handler found nothing to
                    // remove, so the sleep must not begin (it would wait for the clock).
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return []
                    }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return Self.satisfiedWatchers(&state)
                }
                for watcher in woken { watcher.resume() }
            }
        } onCancel: {
            let (removed, woken) = state.withLockedValue { state in
                let removed = state.sleepers.removeValue(forKey: id)
                return (removed, removed == nil ? [] : Self.satisfiedWatchers(&state))
            }
            removed?.continuation.resume(throwing: CancellationError())
            for watcher in woken { watcher.resume() }
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLockedValue { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once the pending sleeps (as offsets from time zero) satisfy `predicate`.
    public func waitForSleeps(_ predicate: @escaping @Sendable ([Duration]) -> Bool) async {
        await watch { deadlines, _ in predicate(deadlines.map(\.offset)) }
    }

    /// Returns once the pending sleeps' deadlines and the number of sleeps begun satisfy `check`.
    private func watch(_ check: @escaping @Sendable ([Instant], Int) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                if check(state.sleepers.values.map(\.deadline), state.nextID) { return true }
                state.watchers.append((check, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Returns once something sleeps until `deadline` (an offset from time zero) or later.
    public func waitForSleep(until deadline: Duration) async {
        await waitForSleeps { $0.contains { $0 >= deadline } }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let deadlines = state.sleepers.values.map(\.deadline)
        let begun = state.nextID
        var woken: [CheckedContinuation<Void, Never>] = []
        state.watchers.removeAll { watcher in
            guard watcher.predicate(deadlines, begun) else { return false }
            woken.append(watcher.continuation)
            return true
        }
        return woken
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await waitForSleeps { $0.count >= count }
    }

    /// Returns once `started` sleeps have begun since the clock was made and exactly `pending` of
    /// them are still waiting: the others were woken or cancelled. A test that races work against
    /// a timeout waits this way for the work to finish (cancelling its timeout) before it moves
    /// the clock past the timeouts that should fire.
    public func waitForSleeps(started: Int, pending: Int) async {
        await watch { deadlines, begun in begun >= started && deadlines.count == pending }
    }
}
