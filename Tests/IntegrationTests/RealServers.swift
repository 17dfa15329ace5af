import CadenceTesting
import Foundation
import Testing

/// Whether tests that need a real PostgreSQL or HAProxy run: when it is installed, and always in CI
/// (`CI=true`), where `.ci/run` installs both, so that a failed install fails CI instead of
/// skipping those tests quietly.
enum RealServers {
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let postgres = PostgresTestServer.isAvailable || inCI
    static let haproxy = HAProxyTestServer.isAvailable || inCI
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only where ``RealServers/postgres`` holds, saying why it was skipped otherwise.
    static var needsPostgres: Self {
        .enabled(if: RealServers.postgres, Comment(rawValue: PostgresTestServer.unavailableReason))
    }

    /// Runs a suite only where ``RealServers/haproxy`` holds, saying why it was skipped otherwise.
    static var needsHAProxy: Self {
        .enabled(if: RealServers.haproxy, Comment(rawValue: HAProxyTestServer.unavailableReason))
    }
}
