import CadenceClient
import Logging
import PostgresNIO

/// What every node does in the background: follow notifications, and every heartbeat what
/// ``SharedAnswersMachine/heartbeat(unread:)`` says; and how the registry speaks of database failures.
extension PostgresAnswerRegistry {
    // MARK: Notifications

    func received(_ signal: PostgresNotificationListener.Signal) async {
        switch signal {
        case .listening: await perform(machine.listening())
        case .appended(let id, let sequence): await perform(machine.notified(id, sequence: sequence))
        }
    }

    func startListening() throws {
        let listener = PostgresNotificationListener(
            configuration: try configuration.listenerConfiguration(applicationName: "cadence \(node) listener"),
            clock: clock, logger: logger, closeTimeout: configuration.storeTimeout,
            retry: configuration.listenerRetry)
        background.append(Task { await listener.run { [weak self] signal in await self?.received(signal) } })
    }

    // MARK: Heartbeats (every node)

    func startHeartbeats() {
        let (clock, interval) = (self.clock, configuration.heartbeatInterval)
        background.append(
            Task { [weak self] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: interval) } catch { return }
                    await self?.heartbeat()
                }
            })
    }

    /// One heartbeat: the machine says what to do, knowing which mirrors no reader waits on.
    func heartbeat() async {
        await perform(machine.heartbeat(unread: Set(logs.idleAnswers())))
    }

    func renewLeases() async {
        let (journal, node, lease) = (self.journal, self.node, configuration.leaseTimeout)
        guard
            let running = await heartbeatCall(.renew, "renew this node's leases", {
                try await journal.renewLeases(of: node, for: lease)
            })
        else { return }
        await perform(machine.leasesRenewed(running))
    }

    func takeOverExpiredLeases() async {
        let journal = self.journal
        guard
            let expired = await heartbeatCall(.takeOver, "look for expired leases", {
                try await journal.expiredLeases(limit: 100)
            })
        else { return }
        for id in expired {
            guard
                let appended = await heartbeatCall(.takeOver, "take over answer \(id)", {
                    try await journal.append(
                        [
                            .error(
                                code: "interrupted",
                                message: "the server node producing this answer stopped; the text so far is kept")
                        ],
                        to: id, expecting: nil, onlyIfLeaseExpired: true)
                })
            else { return }
            guard appended != nil else { continue }
            logger.notice("took over answer \(id) after its owner's lease expired")
            metrics.leaseTakenOver()
            metrics.eventsAppended(1)
            metrics.answerEnded(.interrupted(partialText: ""))
            await perform(machine.ended(id))
        }
    }

    func purge() async {
        let (journal, retention) = (self.journal, configuration.retention)
        _ = await heartbeatCall(.purge, "purge old answers") { try await journal.purge(olderThan: retention) }
    }

    /// Runs one of the heartbeat's database calls within ``PostgresConfiguration/storeTimeout``, as
    /// every other call is: a query stuck on a lost connection or a lock would otherwise hold the
    /// heartbeat, and with it every later one. A failure or a timeout is logged and fed to the
    /// machine as the store failure it is; the answer is then `nil`.
    func heartbeatCall<T: Sendable>(
        _ operation: SharedAnswersMachine.StoreOperation, _ what: String,
        _ body: @escaping @Sendable () async throws -> T
    ) async -> T? {
        do {
            return try await withDeadline(configuration.storeTimeout, clock: clock, body)
        } catch {
            logger.warning("could not \(what)", metadata: ["error": "\(Self.describe(error))"])
            await perform(machine.storeFailed(operation))
            return nil
        }
    }

    // MARK: Errors

    /// Runs a database call for a request, turning a failure (or no answer within
    /// ``PostgresConfiguration/storeTimeout``) into a 503 that says the store is unreachable.
    func storeCall<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withDeadline(configuration.storeTimeout, clock: clock, body)
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
