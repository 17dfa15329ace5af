import CadenceBenchmarkKit
import CadenceTesting

/// The PostgreSQL a benchmark shares answers through: by default a fresh server of its own
/// (``PostgresTestServer``: PostgreSQL 15 in a temporary folder on a free loopback port, stopped at
/// the end), or the one at `--postgres URL` (its database must exist; the nodes create their tables).
struct BenchmarkPostgres: Sendable {
    let url: String
    private let server: PostgresTestServer?

    static func start(url: String?) async throws -> BenchmarkPostgres {
        if let url { return BenchmarkPostgres(url: url, server: nil) }
        guard PostgresTestServer.isAvailable else {
            throw BenchmarkError(
                "PostgreSQL is not available here (\(PostgresTestServer.unavailableReason)); or give --postgres URL")
        }
        let server = try await PostgresTestServer.start(database: "cadence_bench")
        return BenchmarkPostgres(url: server.url, server: server)
    }

    /// Stops the server this benchmark started, if it started one.
    func stop() { server?.stop() }
}
