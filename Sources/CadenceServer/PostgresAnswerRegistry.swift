import CadenceClient
import CadenceCore
import CadenceEngine
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Answers shared by every node through PostgreSQL: any node serves any answer, a client that
/// reconnects to another node resumes exactly, and a node's death ends its answers as `interrupted`
/// for everyone instead of leaving readers hanging.
///
/// - The node that runs an answer's engine **owns** it: it appends the events to the table in order
///   (a batch per statement when the engine is fast) and renews its lease every
///   ``PostgresConfiguration/heartbeatInterval``.
/// - Every node keeps a **mirror** (an ``AnswerLogs`` entry) of the answers its readers follow. The
///   owner fills its mirror as its appends commit; other nodes fill theirs with one fetch per
///   notification, however many readers wait, and re-read after the listener reconnects and on every
///   heartbeat (a missed notification costs at most one interval).
/// - Every node looks for answers whose lease expired and appends a terminal `error` with code
///   `interrupted` to them, and purges finished answers after ``PostgresConfiguration/retention``.
///
/// Lease times are the database's own clock (`now()`), so nodes need not agree on the time; the
/// intervals between rounds are waited on the injected clock.
///
/// The registry is the driver of a ``SharedAnswersMachine``, which makes every decision above: the
/// registry feeds it what happened (a notification, a fetch, an append, a heartbeat, a failure) and
/// performs what it returns against the ``AnswerJournal`` and the ``AnswerLogs``. What remains here
/// is answering requests (their lookups and their 503 when the store is unreachable) and I/O.
actor PostgresAnswerRegistry: AnswerRegistry {
    private struct Owned {
        var task: Task<Void, Never>
        /// Whose answer it is, for the per-subject count of ``AnswerAdmission``.
        var subject: String
    }

    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let configuration: PostgresConfiguration
    let admission: AnswerAdmission
    let metrics: ServerMetrics
    let logger: Logger
    /// This process's name in the `owner` column.
    let node: String
    let journal: any AnswerJournal
    nonisolated let logs: AnswerLogs
    /// Every decision; only this actor drives it (its background work, in `+Background`, included).
    var machine: SharedAnswersMachine
    private var owned: [String: Owned] = [:]
    private var loading: [String: Task<Void, any Error>] = [:]
    var background: [Task<Void, Never>] = []
    private var clientTask: Task<Void, Never>?

    /// A registry over `journal`, whose heartbeats nobody runs yet (``start(engine:clock:configuration:limits:admission:metrics:logger:)``
    /// starts them, with the listener).
    init(
        engine: any AnswerEngine, clock: any Clock<Duration>, configuration: PostgresConfiguration,
        limits: ReplayLimits,
        admission: AnswerAdmission, metrics: ServerMetrics, logger: Logger, journal: any AnswerJournal, node: String,
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.engine = engine
        self.clock = clock
        self.configuration = configuration
        self.admission = admission
        self.metrics = metrics
        self.logger = logger
        self.node = node
        self.journal = journal
        self.logs = AnswerLogs(limits: limits, clock: clock)
        self.machine = SharedAnswersMachine(configuration: configuration, random: random)
    }

    /// Connects, brings the schema up to date and starts listening; throws ``ServerStartError`` with
    /// the reason when the database cannot be reached within ``PostgresConfiguration/connectTimeout``.
    static func start(
        engine: any AnswerEngine, clock: any Clock<Duration>, configuration: PostgresConfiguration,
        limits: ReplayLimits,
        admission: AnswerAdmission, metrics: ServerMetrics, logger: Logger
    ) async throws -> PostgresAnswerRegistry {
        let node = "node_" + AnswerID.generate().dropFirst(4).prefix(16)
        let connectTimeout = configuration.connectTimeout
        // The schema is migrated on a connection of its own, before the pool runs: a database that
        // refuses the connection or the login fails the start at once with its reason, where the pool
        // would retry until the deadline and then say only that nothing answered.
        let connection: PostgresConnection
        do {
            let settings = try configuration.listenerConfiguration(applicationName: "cadence \(node) start")
            connection = try await withDeadline(connectTimeout, clock: clock) {
                try await PostgresConnection.connect(configuration: settings, id: 0, logger: logger)
            }
        } catch {
            throw ServerStartError(
                message: "could not connect to PostgreSQL at \(configuration.redactedURL): "
                    + PostgresAnswerRegistry.describe(error))
        }
        do {
            try await withDeadline(connectTimeout, clock: clock) {
                try await PostgresAnswerJournal.migrate(on: connection, logger: logger)
            }
            try? await connection.close()
        } catch {
            try? await connection.close()
            throw ServerStartError(
                message: "could not prepare the answers table in PostgreSQL at \(configuration.redactedURL): "
                    + PostgresAnswerRegistry.describe(error))
        }
        let client = PostgresClient(
            configuration: configuration.clientConfiguration(applicationName: "cadence \(node)"),
            backgroundLogger: logger)
        let registry = PostgresAnswerRegistry(
            engine: engine, clock: clock, configuration: configuration, limits: limits, admission: admission,
            metrics: metrics, logger: logger, journal: PostgresAnswerJournal(client: client, logger: logger), node: node
        )
        await registry.run(client)
        try await registry.startListening()
        await registry.startHeartbeats()
        return registry
    }

    // MARK: AnswerRegistry

    func start(_ request: AnswerRequest, for subject: String, conversationID: String?) async throws -> String {
        guard !machine.isStopped else { throw Self.unavailable("the server is shutting down") }
        try admission.admit(subject)
        let id = AnswerID.generate()
        do {
            let (journal, node, lease) = (self.journal, self.node, configuration.leaseTimeout)
            try await storeCall { [journal] in
                try await journal.create(id, subject: subject, conversationID: conversationID, node: node, lease: lease)
            }
        } catch {
            admission.release(subject)
            throw error
        }
        logs.open(id, subject: subject)
        machine.started(id)
        metrics.answerStarted()
        owned[id] = Owned(task: Task { await self.produce(id, request) }, subject: subject)
        return id
    }

    func messages(in conversationID: String, of subject: String) async throws -> [String]? {
        let ids = try await storeCall { [journal] in try await journal.messages(in: conversationID, of: subject) }
        return ids.isEmpty ? nil : ids
    }

    /// Another subject's answer is unknown before anything else about it is told (not even that a
    /// cursor is past its end).
    func check(_ id: String, of subject: String, after sequence: Int) async throws {
        try await follow(id, as: subject)
        try logs.requireKnown(id, subject: subject)
        try await requireSent(id, sequence)
        try logs.check(id, of: subject, after: sequence, pastEndAllowed: true)
    }

    func snapshot(_ id: String, of subject: String, after sequence: Int) async throws -> AnswerSlice {
        try await follow(id, as: subject)
        try logs.requireKnown(id, subject: subject)
        try await requireSent(id, sequence)
        return try logs.snapshot(id, of: subject, after: sequence, pastEndAllowed: true)
    }

    func read(_ id: String, after sequence: Int, quietFor quiet: Duration?, since: Duration?) async throws -> AnswerSlice {
        try await follow(id)
        return try await logs.read(id, after: sequence, quietFor: quiet, since: since)
    }

    func cancel(_ id: String, of subject: String) async throws -> Bool {
        let state = try AnswerRow.visible(try await row(of: id), of: id, to: subject)
        if state.ended { return false }
        let appended = try await storeCall { [journal] in
            try await journal.append(
                [.error(code: "cancelled", message: "the answer was cancelled by the client")], to: id)
        }
        guard appended != nil else { return false }
        metrics.eventsAppended(1)
        metrics.answerEnded(.cancelled(partialText: ""))
        await perform(machine.ended(id))
        return true
    }

    func shutdown() async {
        guard !machine.isStopped else { return }
        for task in background { task.cancel() }
        await perform(machine.shutDown())
        owned = [:]
        logs.shutdown()
        clientTask?.cancel()
    }

    // MARK: Performing the machine's actions

    /// Performs `actions` in order, but for an `append`, which only the owner's writer performs
    /// (``write(_:from:)``).
    func perform(_ actions: [SharedAnswersMachine.Action]) async {
        for action in actions {
            switch action {
            case .fetch(let id, let after): Task { await self.fetch(id, after: after) }
            case .append: break
            case .renew: await renewLeases()
            case .takeOver: await takeOverExpiredLeases()
            case .purge: await purge()
            case .stopEngine(let id): owned[id]?.task.cancel()
            case .interrupt(let id): await interrupt(id)
            case .evict(let id): logs.forget(id, remembering: false)
            }
        }
    }

    /// Feeds the owner's writer's news to the machine and performs what follows, handing back the
    /// writer's next append (`nil`: the batch is done, or the writer stops).
    private func decide(
        _ event: @Sendable (inout SharedAnswersMachine) -> [SharedAnswersMachine.Action]
    ) async -> (expecting: Int, delay: Duration)? {
        var next: (expecting: Int, delay: Duration)?
        var others: [SharedAnswersMachine.Action] = []
        for action in event(&machine) {
            if case .append(_, let expecting, let delay) = action {
                next = (expecting, delay)
            } else {
                others.append(action)
            }
        }
        await perform(others)
        return next
    }

    private func run(_ client: PostgresClient) {
        clientTask = Task { await client.run() }
    }

    // MARK: Producing (the owner)

    /// Runs the engine into a queue and writes the queue to the table, until the answer ends here or
    /// elsewhere (cancelled on another node, taken over after a lost lease).
    private nonisolated func produce(_ id: String, _ request: AnswerRequest) async {
        let queue = AppendQueue<ResearchEvent.Kind>()
        let engine = self.engine
        let producer = Task {
            await AnswerProduction.run(engine, request) { kind in queue.push(kind) }
            queue.close()
        }
        await withTaskCancellationHandler {
            await write(id, from: queue)
        } onCancel: {
            producer.cancel()
        }
        queue.close()
        producer.cancel()
        await producer.value
        await produced(id)
    }

    private func produced(_ id: String) {
        guard let answer = owned.removeValue(forKey: id) else { return }
        machine.engineStopped(id)
        admission.release(answer.subject)
        metrics.answerStopped()
    }

    /// Appends the queue's events in order, each batch as the machine says: with the sequence it
    /// expects, again after a failure, or no more.
    private nonisolated func write(_ id: String, from queue: AppendQueue<ResearchEvent.Kind>) async {
        while let batch = await queue.next() {
            var next = await decide { $0.batchReady(id) }
            if next == nil { return }
            while let (expecting, delay) = next {
                if delay > .zero {
                    do { try await clock.sleep(for: delay) } catch { return }
                }
                if Task.isCancelled { return }
                let outcome: SharedAnswersMachine.AppendOutcome
                do {
                    outcome = try await append(batch, to: id, expecting: expecting)
                } catch {
                    logger.warning(
                        "could not append to answer \(id); trying again", metadata: ["error": "\(Self.describe(error))"]
                    )
                    next = await decide { $0.storeFailed(.append(id)) }
                    continue
                }
                if case .committed(_, let ending) = outcome {
                    let events = batch.enumerated().map { (sequence: expecting + 1 + $0.offset, kind: $0.element) }
                    _ = logs.apply(events, finished: ending, to: id)
                    metrics.eventsAppended(batch.count)
                    if let ending = batch.last?.ending { metrics.answerEnded(ending) }
                }
                next = await decide { $0.appended(id, outcome) }
            }
        }
    }

    /// One try of a batch. Bounded, so a statement lost with its connection is tried again rather
    /// than awaited forever; the expected sequence makes the retry safe. When nothing was appended,
    /// the row says why.
    private nonisolated func append(
        _ batch: [ResearchEvent.Kind], to id: String, expecting: Int
    ) async throws -> SharedAnswersMachine.AppendOutcome {
        let (journal, timeout) = (self.journal, configuration.storeTimeout)
        let appended = try await withDeadline(timeout, clock: clock) {
            try await journal.append(batch, to: id, expecting: expecting, onlyIfLeaseExpired: false)
        }
        if let last = appended { return .committed(through: last, ending: batch.last?.isTerminal == true) }
        return .refused(try await withDeadline(timeout, clock: clock) { try await journal.state(of: id) })
    }

    /// Ends an answer of this node's as `interrupted` while the node shuts down.
    private func interrupt(_ id: String) async {
        _ = try? await withDeadline(configuration.shutdownTimeout, clock: clock) { [journal] in
            try await journal.append(
                [
                    .error(
                        code: "interrupted",
                        message: "the server node producing this answer shut down; the text so far is kept")
                ],
                to: id)
        }
    }

    // MARK: Mirrors (every node)

    /// ``follow(_:)`` for `subject`: an answer that is gone is gone only to its own subject, and
    /// unknown (404) to any other, as an id that never existed.
    private func follow(_ id: String, as subject: String) async throws {
        do {
            try await follow(id)
        } catch AnswerLookupError.gone(let id) {
            _ = try AnswerRow.visible(try await row(of: id), of: id, to: subject)
            throw AnswerLookupError.gone(id)
        }
    }

    /// Makes sure this node mirrors answer `id`, loading it from the table the first time (one load
    /// however many readers ask at once).
    private func follow(_ id: String) async throws {
        if machine.followed(id) { return }
        if let load = loading[id] { return try await load.value }
        let load = Task { try await self.load(id) }
        loading[id] = load
        defer { loading[id] = nil }
        try await load.value
    }

    /// Answer `id`'s row, for a request.
    private func row(of id: String) async throws -> AnswerRow? {
        try await storeCall { [journal] in try await journal.state(of: id) }
    }

    private func load(_ id: String) async throws {
        let row = try AnswerRow.visible(try await row(of: id), of: id, to: nil)
        let events = try await storeCall { [journal] in
            try await journal.events(of: id, after: 0, through: row.lastSequence)
        }
        logs.open(id, subject: row.subject)
        _ = logs.apply(events, finished: row.ended, to: id)
        await perform(machine.loaded(id, row))
    }

    /// Throws ``AnswerLookupError/pastEnd(_:after:lastSequence:ended:)`` when `sequence` is past the
    /// answer's last event. This node's mirror may lag behind the table (a reader that read on the
    /// owner comes back here), so a cursor past the mirror is checked against the table, and the
    /// mirror is brought up to it when the table has the events.
    private func requireSent(_ id: String, _ sequence: Int) async throws {
        guard let position = logs.position(of: id), sequence > position.lastSequence else { return }
        let state = try AnswerRow.visible(try await row(of: id), of: id, to: nil)
        try state.requireSent(sequence, of: id)
        await perform(machine.notified(id, sequence: state.lastSequence))
    }

    /// Reads the answer's row and its events after `after` into its mirror. Each read is bounded: a
    /// query caught by its connection's end can wait forever (seen when PostgreSQL terminates every
    /// connection), and while this fetch waits no other one starts, so the mirror, and every reader
    /// on it, would stop for good.
    private func fetch(_ id: String, after: Int) async {
        let (journal, timeout) = (self.journal, configuration.storeTimeout)
        let row: AnswerRow?
        do {
            row = try await withDeadline(timeout, clock: clock) { try await journal.state(of: id) }
            if let row, row.lastSequence > after {
                let events = try await withDeadline(timeout, clock: clock) {
                    try await journal.events(of: id, after: after, through: row.lastSequence)
                }
                _ = logs.apply(events, finished: row.ended, to: id)
            } else if let row, row.ended {
                _ = logs.apply([], finished: true, to: id)
            }
        } catch {
            logger.warning(
                "could not read answer \(id) from PostgreSQL", metadata: ["error": "\(Self.describe(error))"])
            await perform(machine.storeFailed(.fetch(id)))
            return
        }
        await perform(machine.fetched(id, row))
    }
}
