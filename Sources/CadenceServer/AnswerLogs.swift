import CadenceCore

/// The replay logs of the answers this node holds, and the readers waiting on them.
///
/// ``MemoryAnswerRegistry`` appends to them as its engines produce events. ``PostgresAnswerRegistry``
/// keeps them as mirrors of the events table, filled by the answer's owner directly and by one
/// fetch per notification for answers owned elsewhere, so that a thousand readers of one answer
/// cost one database read, not a thousand.
actor AnswerLogs {
    private struct Entry {
        /// Whose answer it is: anyone else is told it does not exist.
        var subject: String
        var log: ReplayLog
        var finished = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
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
    /// The time since this node's logs started, on the injected clock: when each event was logged.
    private let now: @Sendable () -> Duration
    private var entries: [String: Entry] = [:]
    /// Forgotten answers (the most recent 10,000, each with its subject: ``forgottenKey(_:_:)``),
    /// so their subject's late resume gets 410 rather than 404.
    private var forgotten = RecentSet(capacity: 10_000)
    private var nextWaiter = 0
    private var stopped = false

    init<C: Clock<Duration>>(limits: ReplayLimits, clock: C) {
        self.limits = limits
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
    }

    /// Starts an empty log for an answer of `subject`.
    func open(_ id: String, subject: String) {
        guard !stopped, entries[id] == nil else { return }
        entries[id] = Entry(subject: subject, log: ReplayLog(limits: limits))
    }

    func contains(_ id: String) -> Bool { entries[id] != nil }

    /// The sequence of the last event logged for `id`, and whether the answer has ended.
    func position(of id: String) -> (lastSequence: Int, finished: Bool)? {
        entries[id].map { ($0.log.lastSequence, $0.finished) }
    }

    /// Numbers and logs one event. Returns `false` (and logs nothing) if the answer has ended or
    /// is unknown: a cancelled answer's engine may still be unwinding, and what it sends then is
    /// not part of the answer.
    @discardableResult
    func append(_ kind: ResearchEvent.Kind, to id: String) -> Bool {
        guard entries[id]?.finished == false else { return false }
        entries[id]?.log.append(kind, at: now())
        wakeWaiters(of: id)
        return true
    }

    /// Logs a terminal event and ends the answer in one step, so that nothing slips in between.
    /// Returns `false` if the answer had already ended.
    func end(_ id: String, with kind: ResearchEvent.Kind) -> Bool {
        guard append(kind, to: id) else { return false }
        finish(id)
        return true
    }

    /// Logs events whose sequence numbers were given elsewhere (by the events table), in order.
    /// Events already logged are skipped, so the same events may be offered twice. With `finished`,
    /// the answer ends once every offered event is in.
    func apply(_ events: [(sequence: Int, kind: ResearchEvent.Kind)], finished: Bool, to id: String) -> Applied {
        guard var entry = entries[id] else { return .missing }
        var appended = false
        for event in events where event.sequence > entry.log.lastSequence {
            guard event.sequence == entry.log.lastSequence + 1, !entry.finished else {
                if appended { entries[id] = entry; wakeWaiters(of: id) }
                return .gap
            }
            entry.log.append(event.kind, at: now())
            appended = true
        }
        entries[id] = entry
        if appended { wakeWaiters(of: id) }
        if finished { finish(id) }
        return .applied
    }

    /// Marks the answer ended: readers get the rest of its events, then the end.
    func finish(_ id: String) {
        guard !stopped, entries[id]?.finished == false else { return }
        entries[id]?.finished = true
        wakeWaiters(of: id)
    }

    /// Drops an answer's log, waking its readers. With `remembering`, a later lookup says the answer
    /// is gone (410) rather than unknown (404).
    func forget(_ id: String, remembering: Bool) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        for waiter in entry.waiters.values { waiter.resume() }
        if remembering { forgotten.insert(Self.forgottenKey(id, entry.subject)) }
    }

    /// The ids of logs no reader is waiting on.
    func idleAnswers() -> [String] {
        entries.filter { $0.value.waiters.isEmpty }.map(\.key)
    }

    /// The ids of answers not yet ended.
    func unfinishedAnswers() -> [String] {
        entries.filter { !$0.value.finished }.map(\.key)
    }

    /// Checks that `subject`'s answer is here, throwing 404 or 410 if not (its early events may be
    /// evicted). Another subject's answer is unknown to it (404), whether it is here or forgotten,
    /// exactly like an id that never existed. With no subject (a reader already admitted), a missing
    /// answer is gone.
    func requireKnown(_ id: String, subject: String?) throws {
        if let entry = entries[id] {
            guard let subject, entry.subject != subject else { return }
            throw AnswerLookupError.unknown(id)
        }
        guard let subject else { throw AnswerLookupError.gone(id) }
        throw forgotten.contains(Self.forgottenKey(id, subject)) ? AnswerLookupError.gone(id) : AnswerLookupError.unknown(id)
    }

    private static func forgottenKey(_ id: String, _ subject: String) -> String {
        subject + "\n" + id
    }

    /// Checks that the events after `sequence` can be replayed, throwing why not. A `sequence` past the
    /// log's last event is refused (``AnswerLookupError/pastEnd(_:after:lastSequence:ended:)``) unless
    /// `pastEndAllowed`: a mirror of a shared answer may lag behind its table, whose registry asks
    /// the table instead.
    func check(_ id: String, of subject: String, after sequence: Int, pastEndAllowed: Bool = false) throws {
        _ = try entry(id, of: subject, after: sequence, pastEndAllowed: pastEndAllowed)
    }

    /// The events after `sequence` that exist now, without waiting; refused past the end as in
    /// ``check(_:of:after:pastEndAllowed:)``. With no subject, whoever's answer it is.
    func snapshot(_ id: String, of subject: String?, after sequence: Int, pastEndAllowed: Bool = false) throws -> AnswerSlice {
        let entry = try entry(id, of: subject, after: sequence, pastEndAllowed: pastEndAllowed)
        return AnswerSlice(events: entry.log.events(after: sequence), finished: entry.finished)
    }

    /// The events after `sequence`, waiting until there is at least one or the answer has ended. The
    /// cursor was checked when the reader came (``check(_:of:after:pastEndAllowed:)``), so here it may
    /// be ahead of a lagging mirror, which then waits for the table.
    func read(_ id: String, after sequence: Int) async throws -> AnswerSlice {
        while true {
            try Task.checkCancellation()
            let slice = try snapshot(id, of: nil, after: sequence, pastEndAllowed: true)
            if !slice.events.isEmpty || slice.finished { return slice }
            await waitForChange(of: id, after: sequence)
        }
    }

    /// Wakes every reader and drops every log.
    func shutdown() {
        stopped = true
        for entry in entries.values {
            for waiter in entry.waiters.values { waiter.resume() }
        }
        entries = [:]
    }

    private func entry(_ id: String, of subject: String?, after sequence: Int, pastEndAllowed: Bool) throws -> Entry {
        try requireKnown(id, subject: subject)
        let entry = entries[id]!
        if !pastEndAllowed, sequence > entry.log.lastSequence {
            throw AnswerLookupError.pastEnd(
                id, after: sequence, lastSequence: entry.log.lastSequence, ended: entry.finished)
        }
        guard entry.log.canReplay(after: sequence) else {
            throw AnswerLookupError.evicted(id, after: sequence, firstRetained: entry.log.firstRetainedSequence)
        }
        return entry
    }

    private func wakeWaiters(of id: String) {
        guard let waiters = entries[id]?.waiters, !waiters.isEmpty else { return }
        entries[id]?.waiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// Suspends until answer `id` has an event after `sequence`, ends, is forgotten, or the task is
    /// cancelled. Checks again before suspending, so a change can never slip past unnoticed.
    private func waitForChange(of id: String, after sequence: Int) async {
        nextWaiter += 1
        let token = nextWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard let entry = entries[id] else {
                    continuation.resume()
                    return
                }
                if Task.isCancelled || entry.finished || entry.log.lastSequence > sequence {
                    continuation.resume()
                } else {
                    entries[id]?.waiters[token] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(token, of: id) }
        }
    }

    private func cancelWaiter(_ token: Int, of id: String) {
        entries[id]?.waiters.removeValue(forKey: token)?.resume()
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
