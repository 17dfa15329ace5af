import CadenceCore
import NIOConcurrencyHelpers

/// The replay logs of the answers this node holds, and the readers waiting on them.
///
/// ``MemoryAnswerRegistry`` appends to them as its engines produce events. ``PostgresAnswerRegistry``
/// keeps them as mirrors of the events table, filled by the answer's owner directly and by one
/// fetch per notification for answers owned elsewhere, so that a thousand readers of one answer
/// cost one database read, not a thousand.
///
/// A lock guards them rather than an actor: an append and a read each take it for a few
/// microseconds, and a woken reader goes on from wherever it was resumed instead of queueing for an
/// executor that every answer's producer and reader share. A reader that waits holds no task of its
/// own: its keepalive is a deadline (``read(_:after:quietFor:since:)``), and one alarm task, sleeping until
/// the earliest deadline on the injected clock, wakes the readers that have been quiet long enough.
final class AnswerLogs: Sendable {
    private struct Entry {
        /// Whose answer it is: anyone else is told it does not exist.
        var subject: String
        var log: ReplayLog
        var finished = false
        var waiters: [Int: Waiter] = [:]
    }

    /// A reader waiting for an answer to change, until `deadline` (on ``now``) if it has one.
    private struct Waiter {
        var continuation: CheckedContinuation<Void, Never>
        var deadline: Duration?
    }

    /// The one sleeping task that wakes quiet readers: it rings at `target`.
    private struct Alarm {
        var target: Duration
        var token: Int
        var task: Task<Void, Never>
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Forgotten answers (the most recent 10,000, each with its subject: ``forgottenKey(_:_:)``),
        /// so their subject's late resume gets 410 rather than 404.
        var forgotten = RecentSet(capacity: 10_000)
        var nextToken = 0
        var alarm: Alarm?
        var stopped = false

        mutating func token() -> Int {
            nextToken += 1
            return nextToken
        }

        /// Removes every waiter of `id` and returns their continuations, to be resumed outside the lock.
        mutating func takeWaiters(of id: String) -> [CheckedContinuation<Void, Never>] {
            guard let waiters = entries[id]?.waiters, !waiters.isEmpty else { return [] }
            entries[id]?.waiters = [:]
            return waiters.values.map(\.continuation)
        }
    }

    /// What became of events offered with their sequence numbers (``apply(_:finished:to:)``).
    enum Applied: Equatable {
        /// Every event is in the log now (some may have been there already).
        case applied
        /// An event's sequence skips ahead of the log: the events between are missing; fetch them.
        case gap
        /// There is no log for the answer.
        case missing
    }

    let limits: ReplayLimits
    /// The time since this node's logs started, on the injected clock: when each event was logged,
    /// and the scale of the readers' deadlines.
    private let now: @Sendable () -> Duration
    /// Sleeps until a time on the scale of ``now``: a deadline, not a length, so that an alarm whose
    /// task starts late (a busy machine, a test clock already moved on) still rings on time.
    private let sleepUntil: @Sendable (Duration) async throws -> Void
    private let state = NIOLockedValueBox(State())

    init<C: Clock<Duration>>(limits: ReplayLimits, clock: C) {
        self.limits = limits
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
        self.sleepUntil = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
    }

    /// Starts an empty log for an answer of `subject`.
    func open(_ id: String, subject: String) {
        state.withLockedValue { state in
            guard !state.stopped, state.entries[id] == nil else { return }
            state.entries[id] = Entry(subject: subject, log: ReplayLog(limits: limits))
        }
    }

    func contains(_ id: String) -> Bool { state.withLockedValue { $0.entries[id] != nil } }

    /// The sequence of the last event logged for `id`, and whether the answer has ended.
    func position(of id: String) -> (lastSequence: Int, finished: Bool)? {
        state.withLockedValue { state in state.entries[id].map { ($0.log.lastSequence, $0.finished) } }
    }

    /// Numbers and logs one event. Returns `false` (and logs nothing) if the answer has ended or
    /// is unknown: a cancelled answer's engine may still be unwinding, and what it sends then is
    /// not part of the answer.
    @discardableResult
    func append(_ kind: ResearchEvent.Kind, to id: String) -> Bool {
        log(kind, to: id, ending: false)
    }

    /// Logs a terminal event and ends the answer in one step, so that nothing slips in between.
    /// Returns `false` if the answer had already ended.
    func end(_ id: String, with kind: ResearchEvent.Kind) -> Bool {
        log(kind, to: id, ending: true)
    }

    /// Logs `kind` for an answer still going, ending it with `ending`, and wakes its readers.
    private func log(_ kind: ResearchEvent.Kind, to id: String, ending: Bool) -> Bool {
        let at = now()
        let woken = state.withLockedValue { state -> [CheckedContinuation<Void, Never>]? in
            guard !state.stopped, state.entries[id]?.finished == false else { return nil }
            state.entries[id]?.log.append(kind, at: at)
            if ending { state.entries[id]?.finished = true }
            return state.takeWaiters(of: id)
        }
        guard let woken else { return false }
        for waiter in woken { waiter.resume() }
        return true
    }

    /// Logs events whose sequence numbers were given elsewhere (by the events table), in order.
    /// Events already logged are skipped, so the same events may be offered twice. With `finished`,
    /// the answer ends once every offered event is in.
    func apply(_ events: [(sequence: Int, kind: ResearchEvent.Kind)], finished: Bool, to id: String) -> Applied {
        let at = now()
        let (applied, woken) = state.withLockedValue { state -> (Applied, [CheckedContinuation<Void, Never>]) in
            guard var entry = state.entries[id] else { return (.missing, []) }
            var appended = false
            var result = Applied.applied
            for event in events where event.sequence > entry.log.lastSequence {
                guard event.sequence == entry.log.lastSequence + 1, !entry.finished else {
                    result = .gap
                    break
                }
                entry.log.append(event.kind, at: at)
                appended = true
            }
            let ends = result == .applied && finished && !state.stopped && !entry.finished
            if ends { entry.finished = true }
            state.entries[id] = entry
            return (result, appended || ends ? state.takeWaiters(of: id) : [])
        }
        for waiter in woken { waiter.resume() }
        return applied
    }

    /// Marks the answer ended: readers get the rest of its events, then the end.
    func finish(_ id: String) {
        let woken = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            guard !state.stopped, state.entries[id]?.finished == false else { return [] }
            state.entries[id]?.finished = true
            return state.takeWaiters(of: id)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Drops an answer's log, waking its readers. With `remembering`, a later lookup says the answer
    /// is gone (410) rather than unknown (404).
    func forget(_ id: String, remembering: Bool) {
        let woken = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            guard let entry = state.entries.removeValue(forKey: id) else { return [] }
            if remembering { state.forgotten.insert(Self.forgottenKey(id, entry.subject)) }
            return entry.waiters.values.map(\.continuation)
        }
        for waiter in woken { waiter.resume() }
    }

    /// The ids of logs no reader is waiting on.
    func idleAnswers() -> [String] {
        state.withLockedValue { state in state.entries.filter { $0.value.waiters.isEmpty }.map(\.key) }
    }

    /// The ids of answers not yet ended.
    func unfinishedAnswers() -> [String] {
        state.withLockedValue { state in state.entries.filter { !$0.value.finished }.map(\.key) }
    }

    /// Checks that `subject`'s answer is here, throwing 404 or 410 if not (its early events may be
    /// evicted). Another subject's answer is unknown to it (404), whether it is here or forgotten,
    /// exactly like an id that never existed. With no subject (a reader already admitted), a missing
    /// answer is gone.
    func requireKnown(_ id: String, subject: String?) throws {
        try state.withLockedValue { state in _ = try Self.known(id, subject: subject, in: state) }
    }

    private static func known(_ id: String, subject: String?, in state: State) throws -> Entry {
        if let entry = state.entries[id] {
            guard let subject, entry.subject != subject else { return entry }
            throw AnswerLookupError.unknown(id)
        }
        guard let subject else { throw AnswerLookupError.gone(id) }
        throw state.forgotten.contains(Self.forgottenKey(id, subject)) ? AnswerLookupError.gone(id) : AnswerLookupError.unknown(id)
    }

    private static func forgottenKey(_ id: String, _ subject: String) -> String {
        subject + "\n" + id
    }

    /// Checks that the events after `sequence` can be replayed, throwing why not. A `sequence` past the
    /// log's last event is refused (``AnswerLookupError/pastEnd(_:after:lastSequence:ended:)``) unless
    /// `pastEndAllowed`: a mirror of a shared answer may lag behind its table, whose registry asks
    /// the table instead.
    func check(_ id: String, of subject: String, after sequence: Int, pastEndAllowed: Bool = false) throws {
        try state.withLockedValue { state in
            _ = try Self.entry(id, of: subject, after: sequence, pastEndAllowed: pastEndAllowed, in: state)
        }
    }

    /// The events after `sequence` that exist now, without waiting; refused past the end as in
    /// ``check(_:of:after:pastEndAllowed:)``. With no subject, whoever's answer it is.
    func snapshot(_ id: String, of subject: String?, after sequence: Int, pastEndAllowed: Bool = false) throws -> AnswerSlice {
        try state.withLockedValue { state in
            let entry = try Self.entry(id, of: subject, after: sequence, pastEndAllowed: pastEndAllowed, in: state)
            return AnswerSlice(events: entry.log.events(after: sequence), finished: entry.finished)
        }
    }

    /// The events after `sequence`, waiting until there is at least one or the answer has ended, or,
    /// with `quiet`, until that long has passed with neither: then the slice is empty and not
    /// finished, and the reader sends a keepalive. The cursor was checked when the reader came
    /// (``check(_:of:after:pastEndAllowed:)``), so here it may be ahead of a lagging mirror, which
    /// then waits for the table.
    ///
    /// The quiet time counts from `since` (when the reader's previous slice was taken, its
    /// ``AnswerSlice/takenAt``), or from now: a reader whose write took a while owes its keepalive
    /// as soon as it is back.
    ///
    /// The deadline is rounded up to a sixteenth of `quiet`, so that quiet readers who came at nearly
    /// the same time are woken by one ring of the alarm.
    func read(
        _ id: String, after sequence: Int, quietFor quiet: Duration? = nil, since: Duration? = nil
    ) async throws -> AnswerSlice {
        let deadline = quiet.map { Self.roundedUp((since ?? now()) + $0, to: $0 / 16) }
        while true {
            try Task.checkCancellation()
            var slice = try snapshot(id, of: nil, after: sequence, pastEndAllowed: true)
            slice.takenAt = now()
            if !slice.events.isEmpty || slice.finished { return slice }
            if let deadline, slice.takenAt >= deadline { return slice }
            await waitForChange(of: id, after: sequence, until: deadline)
        }
    }

    /// Wakes every reader and drops every log.
    func shutdown() {
        let (woken, alarm) = state.withLockedValue { state -> ([CheckedContinuation<Void, Never>], Alarm?) in
            state.stopped = true
            let woken = state.entries.values.flatMap { $0.waiters.values.map(\.continuation) }
            state.entries = [:]
            defer { state.alarm = nil }
            return (woken, state.alarm)
        }
        alarm?.task.cancel()
        for waiter in woken { waiter.resume() }
    }

    private static func entry(
        _ id: String, of subject: String?, after sequence: Int, pastEndAllowed: Bool, in state: State
    ) throws -> Entry {
        let entry = try known(id, subject: subject, in: state)
        if !pastEndAllowed, sequence > entry.log.lastSequence {
            throw AnswerLookupError.pastEnd(
                id, after: sequence, lastSequence: entry.log.lastSequence, ended: entry.finished)
        }
        guard entry.log.canReplay(after: sequence) else {
            throw AnswerLookupError.evicted(id, after: sequence, firstRetained: entry.log.firstRetainedSequence)
        }
        return entry
    }

    private static func roundedUp(_ time: Duration, to step: Duration) -> Duration {
        guard step > .zero else { return time }
        return step * Int((time / step).rounded(.up))
    }

    /// Suspends until answer `id` has an event after `sequence`, ends, is forgotten, `deadline`
    /// passes, or the task is cancelled. Checks again before suspending, so a change can never slip
    /// past unnoticed.
    private func waitForChange(of id: String, after sequence: Int, until deadline: Duration?) async {
        let token = state.withLockedValue { $0.token() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLockedValue { state -> Bool in
                    guard !Task.isCancelled, let entry = state.entries[id], !entry.finished,
                        entry.log.lastSequence <= sequence
                    else { return false }
                    if let deadline, now() >= deadline { return false }
                    state.entries[id]?.waiters[token] = Waiter(continuation: continuation, deadline: deadline)
                    if let deadline { armAlarm(for: deadline, in: &state) }
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.entries[id]?.waiters.removeValue(forKey: token) }?.continuation.resume()
        }
    }

    /// Makes the alarm ring no later than `deadline`.
    private func armAlarm(for deadline: Duration, in state: inout State) {
        if let alarm = state.alarm, alarm.target <= deadline { return }
        state.alarm?.task.cancel()
        let token = state.token()
        let sleepUntil = self.sleepUntil
        let task = Task { [weak self] in
            do { try await sleepUntil(deadline) } catch { return }
            self?.ring(token)
        }
        state.alarm = Alarm(target: deadline, token: token, task: task)
    }

    /// Wakes the readers whose deadline has passed, and sets the alarm for the next one.
    private func ring(_ token: Int) {
        let time = now()
        let woken = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            guard state.alarm?.token == token else { return [] }
            state.alarm = nil
            var woken: [CheckedContinuation<Void, Never>] = []
            var next: Duration?
            for (id, entry) in state.entries where !entry.waiters.isEmpty {
                for (key, waiter) in entry.waiters {
                    guard let deadline = waiter.deadline else { continue }
                    if deadline <= time {
                        woken.append(waiter.continuation)
                        state.entries[id]?.waiters.removeValue(forKey: key)
                    } else {
                        next = min(next ?? deadline, deadline)
                    }
                }
            }
            if let next, !state.stopped { armAlarm(for: next, in: &state) }
            return woken
        }
        for waiter in woken { waiter.resume() }
    }
}

/// A set that remembers only its most recent members.
struct RecentSet: Sendable {
    let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    func contains(_ member: String) -> Bool { members.contains(member) }

    mutating func insert(_ member: String) {
        guard members.insert(member).inserted else { return }
        order.append(member)
        if order.count - head > capacity {
            members.remove(order[head])
            head += 1
            if head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }
}
