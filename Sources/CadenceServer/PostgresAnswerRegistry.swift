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
actor PostgresAnswerRegistry: AnswerRegistry {
    private struct Owned {
        var task: Task<Void, Never>
        /// Whose answer it is, for the per-subject count of ``AnswerAdmission``.
        var subject: String
    }

    private struct Mirror {
        var fetching = false
        var dirty = false
        /// The last fetch failed: the next maintenance round reads it again, even for an answer
        /// this node owns (whose mirror otherwise fills as it appends).
        var failed = false
        /// Maintenance rounds since a reader last asked for it.
        var idleRounds = 0
    }

    /// Mirrors no reader asked for in this many rounds are dropped.
    static let idleRoundsBeforeEviction = 15

    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let configuration: PostgresConfiguration
    let admission: AnswerAdmission
    let metrics: ServerMetrics
    let logger: Logger
    /// This process's name in the `owner` column.
    let node: String
    let journal: PostgresAnswerJournal
    nonisolated let logs: AnswerLogs
    private let client: PostgresClient
    private var owned: [String: Owned] = [:]
    private var mirrors: [String: Mirror] = [:]
    private var loading: [String: Task<Void, any Error>] = [:]
    private var background: [Task<Void, Never>] = []
    private var rounds = 0
    private var stopped = false

    private init(
        engine: any AnswerEngine, clock: any Clock<Duration>, configuration: PostgresConfiguration, limits: ReplayLimits,
        admission: AnswerAdmission, metrics: ServerMetrics, logger: Logger
    ) {
        self.engine = engine
        self.clock = clock
        self.configuration = configuration
        self.admission = admission
        self.metrics = metrics
        self.logger = logger
        self.node = "node_" + AnswerID.generate().dropFirst(4).prefix(16)
        self.client = PostgresClient(
            configuration: configuration.clientConfiguration(applicationName: "cadence \(node)"), backgroundLogger: logger)
        self.journal = PostgresAnswerJournal(client: client, logger: logger)
        self.logs = AnswerLogs(limits: limits, clock: clock)
    }

    /// Connects, brings the schema up to date and starts listening; throws ``ServerStartError`` with
    /// the reason when the database cannot be reached within `connectTimeout`.
    static func start(
        engine: any AnswerEngine, clock: any Clock<Duration>, configuration: PostgresConfiguration, limits: ReplayLimits,
        admission: AnswerAdmission, metrics: ServerMetrics, logger: Logger, connectTimeout: Duration = .seconds(15)
    ) async throws -> PostgresAnswerRegistry {
        let registry = PostgresAnswerRegistry(
            engine: engine, clock: clock, configuration: configuration, limits: limits, admission: admission,
            metrics: metrics, logger: logger)
        // The schema is migrated on a connection of its own, before the pool runs: a database that
        // refuses the connection or the login fails the start at once with its reason, where the pool
        // would retry until the deadline and then say only that nothing answered.
        let connection: PostgresConnection
        do {
            let settings = try configuration.listenerConfiguration(applicationName: "cadence \(registry.node) start")
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
        await registry.runClient()
        try await registry.startListening(connectTimeout: connectTimeout)
        await registry.startMaintenance()
        return registry
    }

    // MARK: AnswerRegistry

    func start(_ request: AnswerRequest, for subject: String, conversationID: String?) async throws -> String {
        guard !stopped else { throw Self.unavailable("the server is shutting down") }
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
        mirrors[id] = Mirror()
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

    func read(_ id: String, after sequence: Int, quietFor quiet: Duration?) async throws -> AnswerSlice {
        try await follow(id)
        return try await logs.read(id, after: sequence, quietFor: quiet)
    }

    func cancel(_ id: String, of subject: String) async throws -> Bool {
        guard let state = try await storeCall({ [journal] in try await journal.state(of: id) }), state.subject == subject
        else {
            throw AnswerLookupError.unknown(id)
        }
        if state.purged { throw AnswerLookupError.gone(id) }
        if state.ended { return false }
        let appended = try await storeCall { [journal] in
            try await journal.append([.error(code: "cancelled", message: "the answer was cancelled by the client")], to: id)
        }
        guard appended != nil else { return false }
        metrics.eventsAppended(1)
        metrics.answerEnded(.cancelled(partialText: ""))
        owned[id]?.task.cancel()
        schedule(id)
        return true
    }

    func shutdown() async {
        guard !stopped else { return }
        stopped = true
        for task in background { task.cancel() }
        let running = Array(owned.keys)
        for answer in owned.values { answer.task.cancel() }
        // End this node's answers now rather than when their leases expire: readers elsewhere hear at once.
        for id in running {
            _ = try? await withDeadline(.seconds(2), clock: clock) {
                try await self.journal.append(
                    [.error(code: "interrupted", message: "the server node producing this answer shut down; the text so far is kept")],
                    to: id)
            }
        }
        owned = [:]
        logs.shutdown()
        clientTask?.cancel()
    }

    // MARK: Producing (the owner)

    private var clientTask: Task<Void, Never>?

    private func runClient() {
        let client = self.client
        clientTask = Task { await client.run() }
    }

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
        admission.release(answer.subject)
        metrics.answerStopped()
    }

    /// Appends the queue's events in order. A failed statement is retried with the same expected
    /// sequence, so one that committed before its reply was lost is not applied twice.
    private nonisolated func write(_ id: String, from queue: AppendQueue<ResearchEvent.Kind>) async {
        var written = 0
        var pause = Duration.milliseconds(50)
        while let batch = await queue.next() {
            while true {
                if Task.isCancelled { return }
                do {
                    // A deadline, so a statement lost with its connection is tried again rather than
                    // awaited forever; the expected sequence makes the retry safe.
                    let appended = try await withDeadline(storeTimeout, clock: clock) { [journal, written] in
                        try await journal.append(batch, to: id, expecting: written)
                    }
                    if let last = appended {
                        let events = batch.enumerated().map { (sequence: written + 1 + $0.offset, kind: $0.element) }
                        let finished = batch.last?.isTerminal == true
                        if logs.apply(events, finished: finished, to: id) == .gap { await schedule(id) }
                        metrics.eventsAppended(batch.count)
                        if let ending = batch.last?.ending { metrics.answerEnded(ending) }
                        written = last
                        pause = .milliseconds(50)
                        if finished { return }
                        break
                    }
                    // Nothing appended: the answer ended elsewhere, or an earlier try of this batch
                    // committed. The table says which; the mirror follows the table.
                    let read = try await withDeadline(storeTimeout, clock: clock) { [journal] in try await journal.state(of: id) }
                    guard let state = read else { return }
                    await schedule(id)
                    if state.ended { return }
                    written = state.lastSequence
                    break
                } catch {
                    logger.warning(
                        "could not append to answer \(id); trying again", metadata: ["error": "\(Self.describe(error))"])
                    do { try await clock.sleep(for: pause) } catch { return }
                    pause = min(pause * 2, .seconds(1))
                }
            }
        }
    }

    // MARK: Mirrors (every node)

    /// ``follow(_:)`` for `subject`: an answer that is gone is gone only to its own subject, and
    /// unknown (404) to any other, as an id that never existed.
    private func follow(_ id: String, as subject: String) async throws {
        do {
            try await follow(id)
        } catch AnswerLookupError.gone(let id) {
            let state = try await storeCall { [journal] in try await journal.state(of: id) }
            throw state?.subject == subject ? AnswerLookupError.gone(id) : AnswerLookupError.unknown(id)
        }
    }

    /// Makes sure this node mirrors answer `id`, loading it from the table the first time.
    private func follow(_ id: String) async throws {
        if mirrors[id] != nil {
            mirrors[id]?.idleRounds = 0
            return
        }
        if let load = loading[id] { return try await load.value }
        let load = Task { try await self.load(id) }
        loading[id] = load
        defer { loading[id] = nil }
        try await load.value
    }

    private func load(_ id: String) async throws {
        guard let state = try await storeCall({ [journal] in try await journal.state(of: id) }) else {
            throw AnswerLookupError.unknown(id)
        }
        if state.purged { throw AnswerLookupError.gone(id) }
        let events = try await storeCall { [journal] in try await journal.events(of: id, after: 0, through: state.lastSequence) }
        logs.open(id, subject: state.subject)
        _ = logs.apply(events, finished: state.ended, to: id)
        mirrors[id] = Mirror()
        // Events appended while it loaded sent notifications nobody here was waiting for.
        if !state.ended { schedule(id) }
    }

    /// Throws ``AnswerLookupError/pastEnd(_:after:lastSequence:ended:)`` when `sequence` is past the
    /// answer's last event. This node's mirror may lag behind the table (a reader that read on the
    /// owner comes back here), so a cursor past the mirror is checked against the table, and the
    /// mirror is brought up to it when the table has the events.
    private func requireSent(_ id: String, _ sequence: Int) async throws {
        guard let position = logs.position(of: id), sequence > position.lastSequence else { return }
        guard let state = try await storeCall({ [journal] in try await journal.state(of: id) }) else {
            throw AnswerLookupError.unknown(id)
        }
        if state.purged { throw AnswerLookupError.gone(id) }
        guard sequence <= state.lastSequence else {
            throw AnswerLookupError.pastEnd(id, after: sequence, lastSequence: state.lastSequence, ended: state.ended)
        }
        schedule(id)
    }

    /// Brings a mirror up to the table, with at most one fetch in flight per answer: a signal during
    /// a fetch makes it run once more.
    private func schedule(_ id: String) {
        guard !stopped, var mirror = mirrors[id] else { return }
        if mirror.fetching {
            mirror.dirty = true
            mirrors[id] = mirror
            return
        }
        mirror.fetching = true
        mirrors[id] = mirror
        Task { await self.fetch(id) }
    }

    private func fetch(_ id: String) async {
        defer { mirrors[id]?.fetching = false }
        repeat {
            mirrors[id]?.dirty = false
            do {
                // Each read is bounded: a query caught by its connection's end can wait forever
                // (seen when PostgreSQL terminates every connection), and while this fetch waits no
                // other one starts, so the mirror, and every reader on it, would stop for good.
                guard let position = logs.position(of: id), !position.finished,
                    let state = try await withDeadline(storeTimeout, clock: clock, { [journal] in try await journal.state(of: id) })
                else { return }
                if state.lastSequence > position.lastSequence {
                    let events = try await withDeadline(storeTimeout, clock: clock) { [journal] in
                        try await journal.events(of: id, after: position.lastSequence, through: state.lastSequence)
                    }
                    _ = logs.apply(events, finished: state.ended, to: id)
                } else if state.ended {
                    _ = logs.apply([], finished: true, to: id)
                }
                // Ended elsewhere while this node still runs the engine: stop it.
                if state.ended { owned[id]?.task.cancel() }
            } catch {
                logger.warning("could not read answer \(id) from PostgreSQL", metadata: ["error": "\(Self.describe(error))"])
                mirrors[id]?.failed = true
                return  // the next round tries again
            }
            mirrors[id]?.failed = false
        } while mirrors[id]?.dirty == true
    }

    private func received(_ signal: PostgresNotificationListener.Signal) async {
        switch signal {
        case .listening:
            for id in mirrors.keys { schedule(id) }
        case .appended(let id, let sequence):
            guard mirrors[id] != nil, let position = logs.position(of: id),
                !position.finished, sequence > position.lastSequence
            else { return }
            schedule(id)
        }
    }

    private func startListening(connectTimeout: Duration) async throws {
        let listener = PostgresNotificationListener(
            configuration: try configuration.listenerConfiguration(applicationName: "cadence \(node) listener"),
            clock: clock, logger: logger)
        background.append(Task { await listener.run { [weak self] signal in await self?.received(signal) } })
    }

    // MARK: Maintenance (every node, every heartbeat)

    private func startMaintenance() {
        let (clock, interval) = (self.clock, configuration.heartbeatInterval)
        background.append(
            Task { [weak self] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: interval) } catch { return }
                    await self?.maintain()
                }
            })
    }

    private func maintain() async {
        rounds += 1
        await renewLeases()
        await takeOverExpiredLeases()
        // The safety net under notifications: every unfinished mirror of an answer produced elsewhere is
        // compared with the table (this node's own answers fill their mirrors as they append, and
        // renewing the leases above tells it which of them ended elsewhere), and so is every mirror
        // whose last fetch failed: an owner whose final append committed while its connection was cut
        // learns the ending only by reading it back.
        for id in logs.unfinishedAnswers() where owned[id] == nil || mirrors[id]?.failed == true { schedule(id) }
        await evictIdleMirrors()
        let purgeEvery = max(1, Int((min(configuration.retention / 4, .seconds(60)) / configuration.heartbeatInterval)))
        if rounds % purgeEvery == 0 {
            do { _ = try await journal.purge(olderThan: configuration.retention) } catch {
                logger.warning("could not purge old answers", metadata: ["error": "\(Self.describe(error))"])
            }
        }
    }

    private func renewLeases() async {
        guard !owned.isEmpty else { return }
        let candidates = Set(owned.keys)
        do {
            let running = try await journal.renewLeases(of: node, for: configuration.leaseTimeout)
            // An answer this node still runs but the table has ended was cancelled or taken over elsewhere.
            for id in candidates.subtracting(running) {
                owned[id]?.task.cancel()
                schedule(id)
            }
        } catch {
            logger.warning("could not renew this node's leases", metadata: ["error": "\(Self.describe(error))"])
        }
    }

    private func takeOverExpiredLeases() async {
        do {
            for id in try await journal.expiredLeases() {
                let appended = try await journal.append(
                    [.error(code: "interrupted", message: "the server node producing this answer stopped; the text so far is kept")],
                    to: id, onlyIfLeaseExpired: true)
                guard appended != nil else { continue }
                logger.notice("took over answer \(id) after its owner's lease expired")
                metrics.leaseTakenOver()
                metrics.eventsAppended(1)
                metrics.answerEnded(.interrupted(partialText: ""))
                schedule(id)
            }
        } catch {
            logger.warning("could not look for expired leases", metadata: ["error": "\(Self.describe(error))"])
        }
    }

    private func evictIdleMirrors() async {
        let idle = Set(logs.idleAnswers())
        for (id, var mirror) in mirrors where owned[id] == nil && !mirror.fetching {
            mirror.idleRounds += 1
            if mirror.idleRounds >= Self.idleRoundsBeforeEviction, idle.contains(id) {
                mirrors[id] = nil
                logs.forget(id, remembering: false)
            } else {
                mirrors[id] = mirror
            }
        }
    }

    // MARK: Errors

    /// How long a request waits for the database before it gets `503 store_unavailable`.
    let storeTimeout: Duration = .seconds(5)

    /// Runs a database call for a request, turning a failure (or no answer within ``storeTimeout``)
    /// into a 503 that says the store is unreachable.
    private func storeCall<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withDeadline(storeTimeout, clock: clock, body)
        } catch let error as AnswerLookupError {
            throw error
        } catch {
            throw Self.unavailable(Self.describe(error))
        }
    }

    static func unavailable(_ reason: String) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "store_unavailable",
            message: "the server cannot reach its answer store: \(reason); try again shortly",
            headers: [.retryAfter: "1"])
    }

    /// A database error in words: PostgreSQL's own message when there is one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            guard let underlying = error.underlying else { return "\(error.code)" }
            let reason = SystemErrorText.describe(underlying)
            return error.code == .connectionError ? reason : "\(error.code): \(reason)"
        }
        return String(describing: error)
    }
}

/// Runs `body`, throwing ``DeadlineExceeded`` if it takes longer than `timeout` on `clock`.
///
/// The caller gets its answer at the deadline even if `body` ignores cancellation (a query waiting for
/// a connection to a database that is down): `body` is cancelled and left to end on its own.
func withDeadline<T: Sendable>(
    _ timeout: Duration, clock: any Clock<Duration>, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = DeadlineOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            outcome.install(continuation)
            let work = Task {
                do { outcome.resume(.success(try await body())) } catch { outcome.resume(.failure(error)) }
            }
            let timer = Task {
                do { try await clock.sleep(for: timeout) } catch { return }
                work.cancel()
                outcome.resume(.failure(DeadlineExceeded(timeout: timeout)))
            }
            outcome.onResume { work.cancel(); timer.cancel() }
        }
    } onCancel: {
        outcome.resume(.failure(CancellationError()))
    }
}

/// Resumes a continuation once, with whichever result comes first.
private final class DeadlineOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var cleanup: (@Sendable () -> Void)?
        var done = false
    }

    private let state = NIOLockedValueBox(State())

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLockedValue { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func onResume(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLockedValue { state -> Bool in
            if state.done { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func resume(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLockedValue {
            state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            if state.continuation == nil { state.early = result }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}

/// A call did not finish within its time.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "no answer within \(timeout)" }
}
