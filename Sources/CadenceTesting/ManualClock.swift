import NIOConcurrencyHelpers

/// A clock that moves only when a test advances it, and tells the test when code sleeps on it, so a
/// test can advance exactly after the code under test has suspended (never before), and tests of
/// timed behaviour never sleep for real.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(15)); print("woke") }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(15))   // prints "woke"
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
        var watchers: [(predicate: @Sendable ([Instant]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public var now: Instant { state.withLockedValue { $0.now } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let woken = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                    if deadline <= state.now {
                        continuation.resume()
                        return []
                    }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return Self.satisfiedWatchers(&state)
                }
                for watcher in woken { watcher.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
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
        let check: @Sendable ([Instant]) -> Bool = { predicate($0.map(\.offset)) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                if check(state.sleepers.values.map(\.deadline)) { return true }
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
        var woken: [CheckedContinuation<Void, Never>] = []
        state.watchers.removeAll { watcher in
            guard watcher.predicate(deadlines) else { return false }
            woken.append(watcher.continuation)
            return true
        }
        return woken
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await waitForSleeps { $0.count >= count }
    }
}
