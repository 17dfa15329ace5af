import CadenceTesting
import Foundation
import Testing

@Suite("The real PostgreSQL test server", .needsPostgres)
struct PostgresTestServerTests {
    @Test("starts on a free loopback port, answers SQL, and stop removes its folder")
    func startsAnswersAndStops() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        #expect(postgres.url == "postgres://cadence@127.0.0.1:\(postgres.port)/cadence")
        #expect(try await postgres.execute("SELECT 1") == "1")
        #expect(try await postgres.execute("SELECT current_user, current_database()") == "cadence|cadence")
        #expect(try await postgres.execute("SHOW max_connections") == "200")
        #expect(try await postgres.execute("SHOW listen_addresses") == "127.0.0.1")
        #expect(FileManager.default.fileExists(atPath: postgres.folder))
        postgres.stop()
        #expect(!FileManager.default.fileExists(atPath: postgres.folder))
        await #expect(throws: TestServerError.self) { try await postgres.execute("SELECT 1") }
    }

    @Test("two servers at once get their own ports, folders and data")
    func twoAtOnce() async throws {
        async let first = PostgresTestServer.start()
        async let second = PostgresTestServer.start()
        let (a, b) = try await (first, second)
        defer {
            a.stop()
            b.stop()
        }
        #expect(a.port != b.port)
        #expect(a.folder != b.folder)
        try await a.execute("CREATE TABLE only_in_a (x int)")
        #expect(try await a.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'") == "1")
        #expect(try await b.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'") == "0")
    }

    @Test("a SQL error is thrown with what psql said")
    func sqlError() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        let error = await #expect(throws: TestServerError.self) { try await postgres.execute("SELECT * FROM missing") }
        #expect(error?.message.contains("missing") == true)
    }

    @Test("terminating connections by application name ends only those clients")
    func terminateByApplicationName() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        let victim = Task { try await sleepingClient(postgres, applicationName: "victim") }
        let bystander = Task { try await sleepingClient(postgres, applicationName: "bystander") }
        defer { bystander.cancel() }
        try await waitForClients(postgres, named: ["victim", "bystander"])
        #expect(try await postgres.terminateConnections(applicationName: "victim") == 1)
        let result = try await victim.value
        #expect(result.status != 0)
        #expect(result.stderr.contains("terminat"), "psql said: \(result.stderr)")
        let left = try await postgres.clientConnections().map(\.applicationName)
        #expect(left == ["bystander"])
        #expect(try await postgres.terminateAllClientConnections() == 1)
        #expect(try await bystander.value.status != 0)
        #expect(try await postgres.clientConnections().isEmpty)
    }

    @Test("restart keeps the port and the data, and ends open connections")
    func restart() async throws {
        let postgres = try await PostgresTestServer.start()
        defer { postgres.stop() }
        try await postgres.execute("CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)")
        let client = Task { try await sleepingClient(postgres, applicationName: "before-restart") }
        try await waitForClients(postgres, named: ["before-restart"])
        let port = postgres.port
        try await postgres.restart()
        #expect(postgres.port == port)
        #expect(try await postgres.execute("SELECT x FROM kept") == "42")
        #expect(try await client.value.status != 0)
    }

    /// `psql` holding a connection open in `pg_sleep` (the harness's watchdog ends it if nothing does).
    private func sleepingClient(
        _ postgres: PostgresTestServer, applicationName: String
    ) async throws
        -> CadenceBinary.Result
    {
        try await CadenceBinary.runShell(
            "PGAPPNAME=\(applicationName) psql -X -h 127.0.0.1 -p \(postgres.port) -U cadence -d cadence "
                + "-c 'SELECT pg_sleep(60)'")
    }

    /// Polls `pg_stat_activity` until every named client is connected: PostgreSQL announces no
    /// connection, so there is no signal to wait for.
    private func waitForClients(_ postgres: PostgresTestServer, named names: Set<String>) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let connected = Set(
                try await postgres.clientConnections().filter { $0.state == "active" }.map(\.applicationName))
            if names.isSubset(of: connected) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the clients \(names) did not connect within 20 s")
        throw CancellationError()
    }
}
