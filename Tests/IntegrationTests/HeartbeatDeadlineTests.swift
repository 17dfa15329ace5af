import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Logging
import PostgresNIO
import Testing

@testable import CadenceServer

/// The heartbeat's database calls are bounded by the store timeout, as every other call is: a query
/// that waits for ever (a lock, a connection lost mid-query) must not hold this heartbeat and with it
/// every later one, which would let this node's leases lapse while it runs.
@Suite("The heartbeat's database calls", .needsPostgres)
struct HeartbeatDeadlineTests {
    @Test("a heartbeat whose query waits on a locked table gives up after the store timeout on the injected clock")
    func lockedTable() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        let configuration = try PostgresConfiguration(url: postgres.url)
        let logger = Logger(label: "cadence.heartbeat-test")
        let locker = try await PostgresConnection.connect(
            configuration: configuration.listenerConfiguration(applicationName: "cadence locker"), id: 1,
            logger: logger)
        try await PostgresAnswerJournal.migrate(on: locker, logger: logger)
        let client = PostgresClient(
            configuration: configuration.clientConfiguration(applicationName: "cadence heartbeat test"),
            backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let clock = ManualClock()
        let registry = PostgresAnswerRegistry(
            engine: instantEngine, clock: clock, configuration: configuration, limits: ReplayLimits(),
            admission: AnswerAdmission(limit: nil), metrics: ServerMetrics(), logger: logger,
            journal: PostgresAnswerJournal(client: client, logger: logger), node: "node_heartbeat_test")

        // The connection must be closed however the test ends (PostgresNIO asserts on one that is not).
        do {
            try await heartbeats(
                of: registry, storeTimeout: configuration.storeTimeout, on: clock, whileLockedBy: locker,
                logger: logger)
        } catch {
            try? await locker.close()
            throw error
        }
        await registry.shutdown()
        try await locker.close()
    }

    /// One heartbeat while `locker` holds the answers table, one after it lets go.
    private func heartbeats(
        of registry: PostgresAnswerRegistry, storeTimeout: Duration, on clock: ManualClock,
        whileLockedBy locker: PostgresConnection,
        logger: Logger
    ) async throws {
        try await locker.query("BEGIN", logger: logger)
        try await locker.query("LOCK TABLE cadence_answers IN ACCESS EXCLUSIVE MODE", logger: logger)
        let beat = Task { await registry.heartbeat() }
        // The take-over's look for expired leases waits on the lock, bounded by the store timeout.
        try await withDeadline(.seconds(20), "the heartbeat's query to be given a deadline") {
            await clock.waitForSleep(until: storeTimeout)
        }
        clock.advance(by: storeTimeout)
        try await withDeadline(.seconds(20), "the heartbeat to give up while the table stays locked") {
            await beat.value
        }

        // The database is back: the next heartbeat's query answers, with no timeout on the clock.
        try await locker.query("ROLLBACK", logger: logger)
        try await withDeadline(.seconds(20), "a heartbeat on an unlocked table") { await registry.heartbeat() }
    }
}
