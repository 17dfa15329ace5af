import CadenceTesting
import Foundation

/// Whether tests that need a real PostgreSQL or HAProxy run: when it is installed, and always in CI
/// (`CI=true`), where `.ci/run` installs both, so that a failed install fails CI instead of
/// skipping those tests quietly.
enum RealServers {
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let postgres = PostgresTestServer.isAvailable || inCI
    static let haproxy = HAProxyTestServer.isAvailable || inCI
}
