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
        do {
            let running = try await journal.renewLeases(of: node, for: configuration.leaseTimeout)
            await perform(machine.leasesRenewed(running))
        } catch {
            logger.warning("could not renew this node's leases", metadata: ["error": "\(Self.describe(error))"])
            await perform(machine.storeFailed(.renew))
        }
    }

    func takeOverExpiredLeases() async {
        do {
            for id in try await journal.expiredLeases(limit: 100) {
                let appended = try await journal.append(
                    [
                        .error(
                            code: "interrupted",
                            message: "the server node producing this answer stopped; the text so far is kept")
                    ],
                    to: id, expecting: nil, onlyIfLeaseExpired: true)
                guard appended != nil else { continue }
                logger.notice("took over answer \(id) after its owner's lease expired")
                metrics.leaseTakenOver()
                metrics.eventsAppended(1)
                metrics.answerEnded(.interrupted(partialText: ""))
                await perform(machine.ended(id))
            }
        } catch {
            logger.warning("could not look for expired leases", metadata: ["error": "\(Self.describe(error))"])
            await perform(machine.storeFailed(.takeOver))
        }
    }

    func purge() async {
        do { _ = try await journal.purge(olderThan: configuration.retention) } catch {
            logger.warning("could not purge old answers", metadata: ["error": "\(Self.describe(error))"])
            await perform(machine.storeFailed(.purge))
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
