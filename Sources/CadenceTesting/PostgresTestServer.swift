import Foundation
import NIOConcurrencyHelpers

/// A real PostgreSQL server on 127.0.0.1 with a free port, in a temporary folder of its own, for
/// tests and benchmarks of what shares answers through PostgreSQL (`cadence serve --postgres`).
///
/// The cluster trusts every local connection, its superuser is `cadence`, it has a database named
/// `cadence`, accepts 200 connections and does not fsync. Every command it runs has a deadline, so
/// a stuck server fails the test instead of hanging it. As root, the server runs as the `postgres`
/// user (PostgreSQL refuses root).
///
/// ```swift
/// let postgres = try await PostgresTestServer.start()
/// defer { postgres.stop() }
/// let node = try await ServeProcess.start(["--postgres", postgres.url])
/// #expect(try await postgres.execute("SELECT 1") == "1")
/// _ = try await postgres.terminateAllClientConnections()  // every node loses its connections
/// ```
public final class PostgresTestServer: Sendable {
    /// The superuser every test server has.
    public static let user = "cadence"

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The database tests use.
    public let database: String
    /// The temporary folder holding the cluster (`data`), its socket and its log; removed by ``stop()``.
    public let folder: String
    let installation: PostgresInstallation
    private let stopped = NIOLockedValueBox(false)

    /// `postgres://cadence@127.0.0.1:PORT/DATABASE`.
    public var url: String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)" }
    var dataFolder: String { (folder as NSString).appendingPathComponent("data") }
    var logFile: String { (folder as NSString).appendingPathComponent("postgres.log") }

    /// Whether PostgreSQL can run here; when not, ``unavailableReason`` says what to install.
    public static var isAvailable: Bool { (try? PostgresInstallation.found.get()) != nil }
    /// Why ``isAvailable`` is false (empty when it is true), for skipping tests with a reason.
    public static var unavailableReason: String {
        if case .failure(let error) = PostgresInstallation.found { error.message } else { "" }
    }

    private init(port: Int, database: String, folder: String, installation: PostgresInstallation) {
        self.port = port
        self.database = database
        self.folder = folder
        self.installation = installation
    }

    deinit {
        // A safety net for a test that forgot stop(): never leave a server running.
        stopBlocking()
    }

    /// Starts a server on a free port and creates `database`. Takes a few seconds for the first
    /// server of a test process (`initdb` makes the cluster all later servers copy), well under one
    /// after that.
    public static func start(database: String = "cadence") async throws -> PostgresTestServer {
        try await SystemTool.onThread { try startBlocking(database: database) }
    }

    private static func startBlocking(database: String) throws -> PostgresTestServer {
        let installation = try PostgresInstallation.found.get()
        let template = try installation.templateDataFolder()
        return try SystemTool.inNewTemporaryFolder("cadence-pg", attributes: [.posixPermissions: 0o700]) { folder in
            try installation.handOver(folder)
            let copy = try ChildProcess.runBlocking(
                "/bin/cp", ["-a", template, (folder as NSString).appendingPathComponent("data")], deadline: .seconds(60)
            )
            guard copy.succeeded else {
                throw TestServerError("could not copy the template cluster: \(copy.transcript)")
            }
            return try SystemTool.startOnFreeLoopbackPort { port, lastPick in
                let server = PostgresTestServer(
                    port: port, database: database, folder: folder, installation: installation)
                do {
                    try server.startCluster()
                } catch is PortTaken where !lastPick {
                    server.stopped.withLockedValue { $0 = true }  // nothing runs; keep the folder for the next try
                    return nil
                } catch {
                    server.stopped.withLockedValue { $0 = true }
                    throw error
                }
                _ = try server.psqlBlocking("CREATE DATABASE \"\(database)\"", database: "postgres")
                return server
            }
        }
    }

    /// `pg_ctl start`, waiting until the server accepts connections (at most 30 s).
    private func startCluster() throws {
        let logStart = (try? FileManager.default.attributesOfItem(atPath: logFile)[.size] as? Int) ?? 0
        let options = "-p \(port) -k '\(folder)'"
        let start = try installation.runServerTool(
            "pg_ctl", ["-D", dataFolder, "-l", logFile, "-o", options, "-w", "-t", "30", "start"], directory: folder,
            deadline: .seconds(45))
        if start.succeeded { return }
        let log =
            (try? String(contentsOfFile: logFile, encoding: .utf8)).map { String($0.utf8.dropFirst(logStart)) ?? $0 }
            ?? ""
        if log.contains("could not bind") || log.contains("already in use") { throw PortTaken() }
        // pg_ctl may have given up while the server still starts: make sure nothing is left running.
        _ = try? installation.runServerTool(
            "pg_ctl", ["-D", dataFolder, "-m", "immediate", "-w", "-t", "10", "stop"], directory: folder,
            deadline: .seconds(15))
        throw TestServerError("PostgreSQL did not start on port \(port): \(start.transcript)\n\(log)")
    }

    private struct PortTaken: Error {}

    /// Stops the server (fast shutdown: open connections are closed) and removes its folder.
    /// Blocks until it is done, for use in `defer`; calling it again does nothing.
    public func stop() {
        stopBlocking()
    }

    private func stopBlocking() {
        let wasStopped = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        let fast = try? installation.runServerTool(
            "pg_ctl", ["-D", dataFolder, "-m", "fast", "-w", "-t", "20", "stop"], directory: folder,
            deadline: .seconds(30))
        if fast?.succeeded != true {
            _ = try? installation.runServerTool(
                "pg_ctl", ["-D", dataFolder, "-m", "immediate", "-w", "-t", "10", "stop"], directory: folder,
                deadline: .seconds(15))
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the server (fast shutdown, which closes every connection) and starts it again on the
    /// same port, with the same data; returns once it accepts connections again.
    public func restart() async throws {
        try await SystemTool.onThread { [self] in
            let stop = try installation.runServerTool(
                "pg_ctl", ["-D", dataFolder, "-m", "fast", "-w", "-t", "20", "stop"], directory: folder,
                deadline: .seconds(30))
            guard stop.succeeded else { throw TestServerError("PostgreSQL did not stop: \(stop.transcript)") }
            do {
                try startCluster()
            } catch is PortTaken {
                throw TestServerError("PostgreSQL could not start again: another process took port \(port)")
            }
        }
    }

    /// The temporary folders of every template made by this process, removed when it exits.
    private static let leftovers = NIOLockedValueBox<[String]>([])
    private static let removesAtExit: Void = {
        atexit {
            for folder in PostgresTestServer.leftovers.withLockedValue({ $0 }) {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }()

    static func removeAtExit(_ folder: String) {
        _ = removesAtExit
        leftovers.withLockedValue { $0.append(folder) }
    }
}
