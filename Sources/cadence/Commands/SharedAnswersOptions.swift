import ArgumentParser
import CadenceServer
import Foundation

/// Whether `cadence serve` shares its answers with other nodes through PostgreSQL, and how (README,
/// "Running several nodes").
struct SharedAnswersOptions: ParsableArguments {
    @Option(name: .long, help: "Share answers with other nodes through this PostgreSQL database (or set CADENCE_POSTGRES_URL).")
    var postgres: String?

    @Option(name: .long, help: "With --postgres: how long a node may go silent before others end its answers as interrupted (10s, 1m, …).", transform: DurationArgument.parse)
    var leaseTimeout: DurationArgument = "10s"

    @Option(name: .long, help: "With --postgres: how long a finished answer stays available for resuming (24h, 30m).", transform: DurationArgument.parse)
    var retention: DurationArgument = "24h"

    func validate() throws {
        if !leaseTimeout.isPositive { throw ValidationError("--lease-timeout must be longer than zero") }
    }

    /// The database from `--postgres`, else a non-empty `$CADENCE_POSTGRES_URL`; `nil` keeps answers
    /// in this process's memory.
    func postgresConfiguration() throws -> PostgresConfiguration? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = postgres ?? environment["CADENCE_POSTGRES_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return nil
        }
        do {
            return try PostgresConfiguration(url: url, leaseTimeout: leaseTimeout.duration, retention: retention.duration)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
