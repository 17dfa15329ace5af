import CadenceCore
import CadenceEngine

/// Every answer the server is producing or still remembers, each with its bounded replay log.
///
/// The engine runs in a task owned by the registry, never by a connection: a client that drops can
/// come back with `Last-Event-ID` and read on from where it was. A finished answer is forgotten
/// ``ReplayLimits/retention`` after its end.
actor AnswerRegistry {
    private struct Answer {
        var log: ReplayLog
        var finished = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var task: Task<Void, Never>?
    }

    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let limits: ReplayLimits
    private var answers: [String: Answer] = [:]
    /// Ids of forgotten answers (the most recent 10,000), so a late resume gets 410 rather than 404.
    private var forgotten = RecentSet(capacity: 10_000)
    private var conversations: [String: [String]] = [:]
    private var evictions: [String: Task<Void, Never>] = [:]
    private var nextWaiter = 0
    private var nextID = UInt64.random(in: 0..<(1 << 40))
    private var stopped = false

    init(engine: any AnswerEngine, clock: any Clock<Duration>, limits: ReplayLimits) {
        self.engine = engine
        self.clock = clock
        self.limits = limits
    }

    /// Starts producing an answer and returns its id. With a conversation id, the answer is also a
    /// message of that conversation.
    func start(_ request: AnswerRequest, conversationID: String? = nil) -> String {
        nextID &+= 1
        let id = "ans_" + String(nextID, radix: 36) + String(UInt32.random(in: .min ... .max), radix: 36)
        answers[id] = Answer(log: ReplayLog(maxEvents: limits.maxEvents, maxBytes: limits.maxBytes))
        if let conversationID { conversations[conversationID, default: []].append(id) }
        let engine = self.engine
        answers[id]?.task = Task {
            do {
                for try await kind in engine.answer(request) { self.append(kind, to: id) }
            } catch is CancellationError {
            } catch {
                self.append(.error(code: "engine_failed", message: "the answer engine failed: \(error)"), to: id)
            }
            self.finish(id)
        }
        return id
    }

    /// The message ids of a conversation, oldest first, or `nil` for an unknown conversation.
    func messages(in conversationID: String) -> [String]? {
        conversations[conversationID]
    }

    /// Checks that the events after `sequence` can be replayed, throwing why not.
    func check(_ id: String, after sequence: Int) throws {
        _ = try answer(id, after: sequence)
    }

    /// The events after `sequence` that exist now, without waiting.
    func snapshot(_ id: String, after sequence: Int) throws -> AnswerSlice {
        let answer = try answer(id, after: sequence)
        return AnswerSlice(events: answer.log.events(after: sequence), finished: answer.finished)
    }

    /// The events after `sequence`, waiting until there is at least one or the answer has ended.
    /// Returns an empty, finished slice at the end; throws if the answer or the events are gone.
    func read(_ id: String, after sequence: Int) async throws -> AnswerSlice {
        while true {
            try Task.checkCancellation()
            let slice = try snapshot(id, after: sequence)
            if !slice.events.isEmpty || slice.finished { return slice }
            await waitForChange(of: id, after: sequence)
        }
    }

    /// Cancels an answer that is still being produced: its engine is cancelled at once (a model
    /// request it holds is closed), a terminal `error` with code `cancelled` follows the events so
    /// far, and nothing is appended after it. Returns `false` if the answer had already ended.
    func cancel(_ id: String) throws -> Bool {
        guard let answer = answers[id] else {
            throw forgotten.contains(id) ? AnswerLookupError.gone(id) : AnswerLookupError.unknown(id)
        }
        guard !answer.finished else { return false }
        answer.task?.cancel()
        append(.error(code: "cancelled", message: "the answer was cancelled by the client"), to: id)
        finish(id)
        return true
    }

    /// Cancels every engine and forgets every answer.
    func shutdown() {
        stopped = true
        for (_, answer) in answers {
            answer.task?.cancel()
            for waiter in answer.waiters.values { waiter.resume() }
        }
        for task in evictions.values { task.cancel() }
        answers = [:]
        evictions = [:]
    }

    private func answer(_ id: String, after sequence: Int) throws -> Answer {
        guard let answer = answers[id] else {
            throw forgotten.contains(id) ? AnswerLookupError.gone(id) : AnswerLookupError.unknown(id)
        }
        guard answer.log.canReplay(after: sequence) else {
            throw AnswerLookupError.evicted(id, after: sequence, firstRetained: answer.log.firstRetainedSequence)
        }
        return answer
    }

    private func append(_ kind: ResearchEvent.Kind, to id: String) {
        // A cancelled answer's engine may still be unwinding: what it sends now is not part of the answer.
        guard answers[id]?.finished == false else { return }
        answers[id]?.log.append(kind)
        wakeWaiters(of: id)
    }

    private func finish(_ id: String) {
        guard !stopped, answers[id]?.finished == false else { return }
        answers[id]?.finished = true
        answers[id]?.task = nil
        wakeWaiters(of: id)
        let clock = self.clock
        let retention = limits.retention
        evictions[id] = Task {
            if retention > .zero { try? await clock.sleep(for: retention) }
            self.forget(id)
        }
    }

    private func forget(_ id: String) {
        guard !stopped, let answer = answers.removeValue(forKey: id) else { return }
        for waiter in answer.waiters.values { waiter.resume() }
        evictions[id] = nil
        forgotten.insert(id)
    }

    private func wakeWaiters(of id: String) {
        guard let waiters = answers[id]?.waiters, !waiters.isEmpty else { return }
        answers[id]?.waiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// Suspends until answer `id` has an event after `sequence`, ends, is forgotten, or the task is
    /// cancelled. Checks again before suspending, so a change can never slip past unnoticed.
    private func waitForChange(of id: String, after sequence: Int) async {
        nextWaiter += 1
        let token = nextWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard let answer = answers[id] else {
                    continuation.resume()
                    return
                }
                if Task.isCancelled || answer.finished || answer.log.lastSequence > sequence {
                    continuation.resume()
                } else {
                    answers[id]?.waiters[token] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(token, of: id) }
        }
    }

    private func cancelWaiter(_ token: Int, of id: String) {
        answers[id]?.waiters.removeValue(forKey: token)?.resume()
    }
}

/// Events read from an ``AnswerRegistry``; `finished` means no event will follow them.
struct AnswerSlice: Sendable {
    var events: [ResearchEvent]
    var finished: Bool
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
