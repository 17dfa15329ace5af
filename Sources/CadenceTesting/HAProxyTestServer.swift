import Foundation
import NIOConcurrencyHelpers

/// A real HAProxy on 127.0.0.1 with a free port, balancing HTTP round-robin over the given servers,
/// for tests of several `cadence serve` nodes behind a load balancer.
///
/// No stickiness: every request may go to another server. Health checks (`GET /healthz` every
/// 500 ms, down after 2 failures, up after 1 success) take a dead node out of rotation within about
/// a second; a request that cannot connect is retried on another server (`option redispatch`).
/// Timeouts are minutes long, for streams. The runtime API (``command(_:)``) can cut a server's live
/// connections while the server keeps running (``dropSessions(server:)``).
///
/// ```swift
/// let proxy = try await HAProxyTestServer.start(servers: [nodeA.baseURL, nodeB.baseURL])
/// defer { proxy.stop() }
/// // … stream an answer through proxy.baseURL …
/// try await proxy.dropSessions(server: proxy.serverNames[0])  // node0's clients lose their streams
/// ```
public final class HAProxyTestServer: Sendable {
    /// The backend holding the servers, as the runtime API names it.
    public static let backend = "nodes"

    /// The port of the frontend, on 127.0.0.1.
    public let port: Int
    /// The servers' names in the backend, `node0`, `node1`, … in the order they were given.
    public let serverNames: [String]
    /// The temporary folder with the configuration, the runtime API socket and the log.
    public let folder: String
    private let process: Process

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    var socketPath: String { (folder as NSString).appendingPathComponent("admin.sock") }
    var logFile: String { (folder as NSString).appendingPathComponent("haproxy.log") }

    /// The `haproxy` program, on `PATH` or in `/usr/sbin`.
    static let executable = SystemTool.find("haproxy")

    /// Whether HAProxy is installed; when not, ``unavailableReason`` says so.
    public static var isAvailable: Bool { executable != nil }
    /// Why ``isAvailable`` is false (empty when it is true), for skipping tests with a reason.
    public static var unavailableReason: String {
        isAvailable ? "" : "HAProxy is not installed: apt-get install haproxy"
    }

    private init(port: Int, serverNames: [String], folder: String, process: Process) {
        self.port = port
        self.serverNames = serverNames
        self.folder = folder
        self.process = process
    }

    /// Starts HAProxy in front of `servers` (base URLs like `http://127.0.0.1:8080`) and returns once
    /// it reports ready (systemd's `READY=1`, within 20 s).
    public static func start(servers: [String]) async throws -> HAProxyTestServer {
        guard let executable else { throw TestServerError(unavailableReason) }
        let addresses = try servers.map { server in
            guard let url = URL(string: server), let host = url.host, let port = url.port else {
                throw TestServerError("not a server URL with a host and a port: \(server)")
            }
            return "\(host):\(port)"
        }
        return try await SystemTool.onThread {
            try SystemTool.inNewTemporaryFolder("cadence-haproxy") { folder in
                try SystemTool.startOnFreeLoopbackPort { port, lastPick in
                    try launch(executable, port: port, addresses: addresses, folder: folder, lastAttempt: lastPick)
                }
            }
        }
    }

    /// Runs HAProxy on `port`; `nil` when the port was taken meanwhile (try another).
    private static func launch(
        _ executable: String, port: Int, addresses: [String], folder: String, lastAttempt: Bool
    ) throws -> HAProxyTestServer? {
        let names = addresses.indices.map { "node\($0)" }
        let configurationFile = (folder as NSString).appendingPathComponent("haproxy.cfg")
        let notifyPath = (folder as NSString).appendingPathComponent("notify.sock")
        try? FileManager.default.removeItem(atPath: notifyPath)
        try configuration(port: port, servers: Array(zip(names, addresses)), folder: folder)
            .write(toFile: configurationFile, atomically: true, encoding: .utf8)
        let receiver = try UnixSocket.DatagramReceiver(path: notifyPath)
        let logFile = (folder as NSString).appendingPathComponent("haproxy.log")
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        defer { try? log.close() }

        // -Ws: master-worker mode that tells systemd (here: us, through NOTIFY_SOCKET) when it is ready.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-Ws", "-f", configurationFile]
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notifyPath]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let proxy = HAProxyTestServer(port: port, serverNames: names, folder: folder, process: process)

        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let message = receiver.receive(), message.split(separator: "\n").contains("READY=1") { return proxy }
            if !process.isRunning {
                let said = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
                if said.contains("cannot bind"), !lastAttempt { return nil }
                throw TestServerError("HAProxy did not start (exit \(process.terminationStatus)): \(said)")
            }
        }
        proxy.stop()
        throw TestServerError(
            "HAProxy did not report ready within 20 s: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")"
        )
    }

    /// Stops HAProxy at once (SIGTERM: a hard stop that closes every connection), waiting at most
    /// 5 s before SIGKILL; calling it again does nothing. The folder is removed.
    public func stop() {
        if process.isRunning {
            let exited = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { [process] in
                process.waitUntilExit()
                exited.signal()
            }
            kill(process.processIdentifier, SIGTERM)
            if exited.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                _ = exited.wait(timeout: .now() + 5)
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit {
        // A safety net for a test that forgot stop(): never leave a proxy running.
        stop()
    }
}
