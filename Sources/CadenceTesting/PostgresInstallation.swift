import Foundation
import NIOConcurrencyHelpers

/// The PostgreSQL programs on this machine, and how to run the server's tools: `initdb`, `pg_ctl`
/// and `postgres` refuse to run as root, so as root they run as Debian's `postgres` user through
/// `runuser`.
struct PostgresInstallation: Sendable {
    /// The folder with `initdb`, `pg_ctl` and `postgres`.
    let binDirectory: String
    let psql: String
    /// `runuser` and the user to run the server's tools as, when this process is root.
    let serverUser: (runuser: String, user: String, uid: uid_t, gid: gid_t)?

    static let found: Result<PostgresInstallation, TestServerError> = find()

    /// Runs a server tool (`initdb`, `pg_ctl`) from ``binDirectory``, as the server user when root.
    func runServerTool(
        _ name: String, _ arguments: [String], directory: String, deadline: Duration
    ) throws -> ChildProcess.Result {
        let tool = (binDirectory as NSString).appendingPathComponent(name)
        let environment = ["LC_ALL": "C", "LANG": "C"]
        guard let serverUser else {
            return try ChildProcess.runBlocking(
                tool, arguments, environment: environment, directory: directory, deadline: deadline)
        }
        return try ChildProcess.runBlocking(
            serverUser.runuser, ["-u", serverUser.user, "--", tool] + arguments, environment: environment,
            directory: directory, deadline: deadline)
    }

    /// Gives `path` to the server user, so the server's tools can write in it.
    func handOver(_ path: String) throws {
        guard let serverUser else { return }
        guard chown(path, serverUser.uid, serverUser.gid) == 0 else {
            throw TestServerError("could not give \(path) to \(serverUser.user): errno \(errno)")
        }
    }

    private static func find() -> Result<PostgresInstallation, TestServerError> {
        let required = ["initdb", "pg_ctl", "postgres"]
        guard let binDirectory = candidateBinDirectories().first(where: { folder in
            required.allSatisfy { FileManager.default.isExecutableFile(atPath: (folder as NSString).appendingPathComponent($0)) }
        }) else {
            return .failure(TestServerError("PostgreSQL is not installed (no initdb, pg_ctl and postgres found): apt-get install postgresql"))
        }
        guard let psql = SystemTool.find("psql", preferring: [binDirectory]) else {
            return .failure(TestServerError("psql is not installed: apt-get install postgresql-client"))
        }
        guard SystemTool.isRoot else {
            return .success(PostgresInstallation(binDirectory: binDirectory, psql: psql, serverUser: nil))
        }
        guard let runuser = SystemTool.find("runuser") else {
            return .failure(TestServerError("running as root, PostgreSQL needs runuser (util-linux) to run as postgres"))
        }
        guard let entry = getpwnam("postgres") else {
            return .failure(TestServerError("running as root, PostgreSQL needs the postgres user (apt-get install postgresql creates it)"))
        }
        return .success(
            PostgresInstallation(
                binDirectory: binDirectory, psql: psql,
                serverUser: (runuser, "postgres", entry.pointee.pw_uid, entry.pointee.pw_gid)))
    }

    /// `CADENCE_PG_BINDIR`, Debian's PostgreSQL 15, `pg_config --bindir`, any other Debian version
    /// (newest first), then `PATH`.
    private static func candidateBinDirectories() -> [String] {
        var folders: [String] = []
        if let configured = ProcessInfo.processInfo.environment["CADENCE_PG_BINDIR"] { folders.append(configured) }
        folders.append("/usr/lib/postgresql/15/bin")
        if let pgConfig = SystemTool.find("pg_config"),
            let result = try? ChildProcess.runBlocking(pgConfig, ["--bindir"], deadline: .seconds(10)), result.succeeded
        {
            folders.append(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        folders += versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { "/usr/lib/postgresql/\($0)/bin" }
        if let initdb = SystemTool.find("initdb") { folders.append((initdb as NSString).deletingLastPathComponent) }
        return folders
    }
}

extension PostgresInstallation {
    /// A cluster made once per test process by `initdb` (the slow step, seconds), which every
    /// ``PostgresTestServer`` copies: superuser `cadence`, trust authentication, settings for speed.
    private static let template = NIOLockedValueBox<Result<String, TestServerError>?>(nil)

    /// The template cluster's data folder, made on first use.
    func templateDataFolder() throws -> String {
        try Self.template.withLockedValue { template in
            if template == nil { template = Result { try makeTemplate() }.mapError { $0 as? TestServerError ?? TestServerError("\($0)") } }
            return try template!.get()
        }
    }

    private func makeTemplate() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-pg-template-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        PostgresTestServer.removeAtExit(folder)
        try handOver(folder)
        let data = (folder as NSString).appendingPathComponent("data")
        let initdb = try runServerTool(
            "initdb",
            ["-D", data, "-A", "trust", "-U", PostgresTestServer.user, "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"],
            directory: folder, deadline: .seconds(120))
        guard initdb.succeeded else { throw TestServerError("initdb failed: \(initdb.transcript)") }
        // Appended settings win over the defaults above them. Port and socket folder are per server.
        let settings = """

            # cadence test server
            listen_addresses = '127.0.0.1'
            max_connections = 200
            shared_buffers = 16MB
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            log_min_messages = warning

            """
        let configuration = FileHandle(forWritingAtPath: (data as NSString).appendingPathComponent("postgresql.conf"))
        guard let configuration else { throw TestServerError("initdb left no postgresql.conf in \(data)") }
        configuration.seekToEndOfFile()
        configuration.write(Data(settings.utf8))
        try configuration.close()
        return data
    }
}
