import CadenceCore
import Foundation
import PostgresNIO

/// Where several server nodes share their answers: a PostgreSQL database, and the lease and
/// retention times of the answers in it.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.postgres = try PostgresConfiguration(url: "postgres://cadence@127.0.0.1:5432/cadence")
/// ```
///
/// The URL takes the usual form `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with
/// `?sslmode=disable|prefer|require` (by default `disable` for a loopback host, `prefer` otherwise).
public struct PostgresConfiguration: Sendable, Hashable {
    /// The database URL as given (its password is never printed: see ``redactedURL``).
    public var url: String
    /// How long a node may go without renewing its lease on an answer before another node ends the
    /// answer as `interrupted`. The owner renews every fifth of it.
    public var leaseTimeout: Duration
    /// How long a finished answer's events stay for resuming before a node purges them.
    public var retention: Duration
    /// The largest number of database connections this node opens (the listener's one aside).
    public var maxConnections: Int

    let host: String
    let port: Int
    let username: String
    let password: String?
    let database: String?
    let sslMode: SSLMode

    enum SSLMode: String, Sendable, Hashable { case disable, prefer, require }

    public init(
        url: String, leaseTimeout: Duration = .seconds(10), retention: Duration = .seconds(24 * 3600),
        maxConnections: Int = 20
    ) throws {
        guard let components = URLComponents(string: url),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty
        else {
            throw ServerStartError(
                message: "the PostgreSQL URL must look like postgres://USER@HOST:PORT/DATABASE, not \"\(Self.redact(url))\"")
        }
        guard leaseTimeout > .zero, retention >= .zero else {
            throw ServerStartError(message: "the lease timeout must be positive and the retention not negative")
        }
        self.url = url
        self.leaseTimeout = leaseTimeout
        self.retention = retention
        self.maxConnections = max(2, maxConnections)
        self.host = host
        self.port = components.port ?? 5432
        self.username = components.percentEncodedUser?.removingPercentEncoding ?? "postgres"
        self.password = components.percentEncodedPassword?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : path
        let query = components.queryItems ?? []
        if let mode = query.first(where: { $0.name == "sslmode" })?.value {
            guard let parsed = SSLMode(rawValue: mode == "allow" ? "prefer" : mode == "verify-full" ? "require" : mode)
            else { throw ServerStartError(message: "sslmode must be disable, prefer or require, not \"\(mode)\"") }
            self.sslMode = parsed
        } else {
            self.sslMode = ["127.0.0.1", "localhost", "::1"].contains(host) ? .disable : .prefer
        }
    }

    /// How often the owner of an answer renews its lease, and every node looks for expired ones.
    public var heartbeatInterval: Duration { leaseTimeout / 5 }

    // The timings of the registry's work with the database, set here rather than where they are
    // waited on, so that one place says how long anything may take.

    /// How long a database call may take: a request that waits longer gets `503 store_unavailable`,
    /// and an append or a fetch that takes longer is tried again (a statement lost with its
    /// connection can otherwise wait forever).
    var storeTimeout: Duration = .seconds(5)
    /// How long a node shutting down waits for each of its answers to be ended as `interrupted`.
    var shutdownTimeout: Duration = .seconds(2)
    /// How long the schema migration, and the first connection before it, may take at start.
    var connectTimeout: Duration = .seconds(15)
    /// The waits between tries of a failed append: the shared retry rule
    /// (`ReliabilityConfiguration/retryDelay(beforeAttempt:retryAfter:jitter:)`), 50 ms doubling
    /// up to 1 s; only the backoff fields are read.
    var appendRetry = ReliabilityConfiguration(backoffBase: .milliseconds(50), backoffMax: .seconds(1))
    /// The waits between tries to connect the notification listener again, by the same rule.
    var listenerRetry = ReliabilityConfiguration(backoffBase: .milliseconds(100), backoffMax: .seconds(2))
    /// Mirrors no reader asked for in this many heartbeats are dropped.
    var idleHeartbeatsBeforeEviction = 15

    /// How many heartbeats pass between purges of old answers: a quarter of the retention, at most a
    /// minute, and at least one heartbeat.
    var heartbeatsBetweenPurges: Int {
        max(1, Int(min(retention / 4, .seconds(60)) / heartbeatInterval))
    }

    /// The URL with its password replaced by `***`, for messages and logs.
    public var redactedURL: String { Self.redact(url) }

    static func redact(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    var tls: PostgresClient.Configuration.TLS {
        switch sslMode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    /// The connection pool's settings; `application_name` lets operators (and tests) tell a
    /// node's connections apart in `pg_stat_activity`.
    func clientConfiguration(applicationName: String) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = maxConnections
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// The settings of the one connection that listens for notifications.
    func listenerConfiguration(applicationName: String) throws -> PostgresConnection.Configuration {
        let connectionTLS: PostgresConnection.Configuration.TLS
        switch sslMode {
        case .disable: connectionTLS = .disable
        case .prefer: connectionTLS = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: connectionTLS = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: connectionTLS)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }
}
