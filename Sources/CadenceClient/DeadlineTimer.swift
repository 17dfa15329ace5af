/// A driver's time axis on an injected clock, and the one timer it keeps for its machine's
/// earliest deadline.
///
/// The pure machines (``AnswerStreamMachine``, the research machine) work in durations since their
/// start and say when they next need waking (`nextDeadline`); their drivers keep exactly one timer
/// for that deadline, moved whenever it changes.
///
/// ```swift
/// var timer = DeadlineTimer(clock)
/// timer.keep(machine.nextDeadline) { inputs.yield(.deadline) }
/// // … on `.deadline`: timer.fired(); actions = machine.deadlinePassed(now: timer.now())
/// ```
package struct DeadlineTimer: Sendable {
    /// The time since the timer was made.
    package let now: @Sendable () -> Duration
    private let sleep: @Sendable (_ until: Duration) async throws -> Void
    private var task: Task<Void, Never>?
    private var deadline: Duration?

    package init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: start.advanced(by: deadline), tolerance: nil) }
    }

    /// Keeps a timer set for `deadline` (a time since the start; `nil` for none), which calls `fire`
    /// when it passes. A deadline that moves earlier cancels the old timer and starts a new one; one
    /// that moves later keeps the timer already set, which then fires early (the machines allow
    /// that: an early `deadlinePassed` does nothing), and the driver's next `keep` after
    /// ``fired()`` sets the later one. Idle deadlines move later with every event, and a new timer
    /// per event would cost a task and a clock sleep each, whose cancelled sleeps the clock may hold
    /// until their deadlines.
    package mutating func keep(_ deadline: Duration?, fire: @escaping @Sendable () -> Void) {
        guard deadline != self.deadline else { return }
        if let deadline, let current = self.deadline, current < deadline { return }
        task?.cancel()
        self.deadline = deadline
        guard let deadline else {
            task = nil
            return
        }
        let sleep = self.sleep
        task = Task {
            do {
                try await sleep(deadline)
                fire()
            } catch {}
        }
    }

    /// The timer fired: the next ``keep(_:fire:)`` sets it again, even for the same deadline.
    package mutating func fired() {
        deadline = nil
        task = nil
    }

    /// Stops the timer.
    package mutating func cancel() {
        task?.cancel()
        task = nil
        deadline = nil
    }
}
