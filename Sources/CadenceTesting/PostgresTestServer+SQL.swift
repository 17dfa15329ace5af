import Foundation

extension PostgresTestServer {
    /// The application name of the harness's own `psql` sessions, which the terminate methods spare.
    public static let harnessApplicationName = "cadence-test-harness"

    /// Runs SQL with `psql` (unaligned, tuples only, stopping at the first error) and returns what
    /// it printed, without the final newline: one row a line, columns separated by `|`.
    ///
    /// ```swift
    /// #expect(try await postgres.execute("SELECT 1") == "1")
    /// ```
    @discardableResult
    public func execute(_ sql: String) async throws -> String {
        try await Self.onThread { [self] in try psqlBlocking(sql, database: database) }
    }

    func psqlBlocking(_ sql: String, database: String) throws -> String {
        let result = try ChildProcess.runBlocking(
            installation.psql,
            ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", Self.user,
             "-d", database, "-f", "-"],
            environment: ["PGCONNECT_TIMEOUT": "10", "PGAPPNAME": Self.harnessApplicationName],
            input: sql, deadline: .seconds(30))
        guard result.succeeded else { throw TestServerError("psql failed on \(sql): \(result.transcript)") }
        var output = result.output
        if output.hasSuffix("\n") { output.removeLast() }
        return output
    }

    /// A client connection the server has open, as `pg_stat_activity` shows it.
    public struct ClientConnection: Sendable, Hashable {
        public var pid: Int
        public var applicationName: String
        /// `active`, `idle`, `idle in transaction`, …
        public var state: String
        /// The last statement, whitespace folded (`LISTEN "answers"` for a listener).
        public var query: String
    }

    /// The client connections open now, except the harness's own.
    public func clientConnections() async throws -> [ClientConnection] {
        let rows = try await execute(
            """
            SELECT pid, chr(31), application_name, chr(31), coalesce(state, ''), chr(31),
                   regexp_replace(coalesce(query, ''), '\\s+', ' ', 'g')
            FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND application_name <> '\(Self.harnessApplicationName)'
            ORDER BY pid
            """)
        return rows.split(separator: "\n").compactMap { row in
            let fields = row.split(separator: "|\u{1F}|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let pid = Int(fields[0]) else { return nil }
            return ClientConnection(pid: pid, applicationName: fields[1], state: fields[2], query: fields[3])
        }
    }

    /// Terminates the connections of clients that set this application name (as `cadence serve`
    /// nodes may, to tell them apart), the way an administrator or a failover would; returns how
    /// many ended. Waits (up to 5 s each) until they are gone.
    @discardableResult
    public func terminateConnections(applicationName: String) async throws -> Int {
        try await terminate(where: "application_name = '\(applicationName.replacingOccurrences(of: "'", with: "''"))'")
    }

    /// Terminates every client connection but the harness's own, as a failover would; returns how
    /// many ended. Waits (up to 5 s each) until they are gone.
    @discardableResult
    public func terminateAllClientConnections() async throws -> Int {
        try await terminate(where: "application_name <> '\(Self.harnessApplicationName)'")
    }

    /// Terminates the client connections matching an SQL condition on `pg_stat_activity`, for
    /// example `query LIKE 'LISTEN%'` to cut only the listeners; returns how many ended.
    @discardableResult
    public func terminateConnections(whereSQL condition: String) async throws -> Int {
        try await terminate(where: "application_name <> '\(Self.harnessApplicationName)' AND (\(condition))")
    }

    private func terminate(where condition: String) async throws -> Int {
        let count = try await execute(
            """
            SELECT count(*) FILTER (WHERE ended) FROM (
                SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND \(condition)
            ) AS terminated
            """)
        return Int(count) ?? 0
    }
}
