import CadenceCore
import CadenceEngine

/// Every answer this process is producing or still remembers, each with its bounded replay log:
/// the default registry, for one machine and the demo.
///
/// The engine runs in a task owned by the registry, never by a connection: a client that drops can
/// come back with `Last-Event-ID` and read on from where it was. A finished answer is forgotten
/// ``ReplayLimits/retention`` after its end, and leaves its conversation then.
actor MemoryAnswerRegistry: AnswerRegistry {
    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let limits: ReplayLimits
    let admission: AnswerAdmission
    let metrics: ServerMetrics
    nonisolated let logs: AnswerLogs
    private var tasks: [String: Task<Void, Never>] = [:]
    /// The subject of each answer in production, whose place it gives back when it ends.
    private var producers: [String: String] = [:]
    private var conversations = ConversationIndex()
    private var evictions: [String: Task<Void, Never>] = [:]
    private var stopped = false

    init(
        engine: any AnswerEngine, clock: any Clock<Duration>, limits: ReplayLimits,
        admission: AnswerAdmission = AnswerAdmission(limit: nil), metrics: ServerMetrics = ServerMetrics()
    ) {
        self.engine = engine
        self.clock = clock
        self.limits = limits
        self.admission = admission
        self.metrics = metrics
        self.logs = AnswerLogs(limits: limits, clock: clock)
    }

    /// The conversations kept (for tests of pruning).
    var conversationCount: Int { conversations.count }

    func start(_ request: AnswerRequest, for subject: String, conversationID: String?) async throws -> String {
        try admission.admit(subject)
        let id = AnswerID.generate()
        logs.open(id, subject: subject)
        producers[id] = subject
        if let conversationID { conversations.add(id, to: conversationID, of: subject) }
        metrics.answerStarted()
        let (engine, logs, metrics) = (self.engine, self.logs, self.metrics)
        tasks[id] = Task {
            await AnswerProduction.run(engine, request) { kind in
                guard logs.append(kind, to: id) else { return false }
                metrics.eventsAppended(1)
                if let ending = kind.ending { metrics.answerEnded(ending) }
                return true
            }
            self.finished(id)
        }
        return id
    }

    func messages(in conversationID: String, of subject: String) -> [String]? {
        conversations.messages(in: conversationID, of: subject)
    }

    nonisolated func check(_ id: String, of subject: String, after sequence: Int) async throws {
        try logs.check(id, of: subject, after: sequence)
    }

    nonisolated func snapshot(_ id: String, of subject: String, after sequence: Int) async throws -> AnswerSlice {
        try logs.snapshot(id, of: subject, after: sequence)
    }

    nonisolated func read(_ id: String, after sequence: Int, quietFor quiet: Duration?, since: Duration?) async throws -> AnswerSlice {
        try await logs.read(id, after: sequence, quietFor: quiet, since: since)
    }

    func cancel(_ id: String, of subject: String) async throws -> Bool {
        try logs.requireKnown(id, subject: subject)
        guard logs.end(id, with: .error(code: "cancelled", message: "the answer was cancelled by the client"))
        else { return false }
        metrics.eventsAppended(1)
        metrics.answerEnded(.cancelled(partialText: ""))
        tasks[id]?.cancel()
        finished(id)
        return true
    }

    func shutdown() async {
        stopped = true
        for task in tasks.values { task.cancel() }
        for task in evictions.values { task.cancel() }
        tasks = [:]
        evictions = [:]
        logs.shutdown()
    }

    /// The engine stopped (or the answer was cancelled): end the log and forget it after retention.
    private func finished(_ id: String) {
        guard !stopped, tasks.removeValue(forKey: id) != nil else { return }
        admission.release(producers.removeValue(forKey: id) ?? Authenticator.soleSubject)
        metrics.answerStopped()
        let (clock, retention, logs) = (self.clock, limits.retention, self.logs)
        evictions[id] = Task {
            logs.finish(id)
            if retention > .zero { try? await clock.sleep(for: retention) }
            await self.forget(id)
        }
    }

    private func forget(_ id: String) async {
        guard !stopped, evictions.removeValue(forKey: id) != nil else { return }
        conversations.remove(id)
        logs.forget(id, remembering: true)
    }
}
