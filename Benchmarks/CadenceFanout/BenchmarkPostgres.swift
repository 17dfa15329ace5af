/// The PostgreSQL a benchmark shares answers through: the one at `--postgres URL` if given (its
/// database must exist; the server creates its tables), otherwise a fresh server of its own.
struct BenchmarkPostgres: Sendable {
    let url: String
    private let stopServer: @Sendable () -> Void

    static func start(url: String?) async throws -> BenchmarkPostgres {
        if let url { return BenchmarkPostgres(url: url, stopServer: {}) }
        throw BenchmarkError("give --postgres URL: no PostgresTestServer yet")
    }

    /// Stops the server this benchmark started, if it started one.
    func stop() { stopServer() }
}
