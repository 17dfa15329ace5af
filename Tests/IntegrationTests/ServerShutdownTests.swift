import CadenceServer
import Foundation
import Testing

/// A server that stops (`RunningServer.shutdown()`, or SIGTERM for `cadence serve`) ends every
/// connection, however far it got: it stops even while clients hold connections open.
@Suite("Server shutdown", .timeLimit(.minutes(2)))
struct ServerShutdownTests {
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Only the shutdown may close a connection here, not the request read timeout.
    static var configuration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.requestReadTimeout = .seconds(3600)
        return configuration
    }

    @Test("a connection whose first request head is half sent when the server stops is closed, and the server stops")
    func halfSentFirstHead() async throws {
        let running = try await ReferenceServer(engine: instantEngine, configuration: Self.configuration).start()
        // The first line of a head, and no more: the connection has sent bytes but not a request.
        let halfway = try await RawConnection.open(port: running.port)
        defer { halfway.closeLater() }  // a server that ignores it would otherwise never stop
        try await halfway.send("GET /healthz HTTP/1.1\r\n")
        // A whole exchange on another connection, which then stays open, idle.
        let idle = try await RawConnection.open(port: running.port)
        defer { idle.closeLater() }
        try await idle.send(Self.healthz)
        try await idle.wait(for: "the idle connection's response") { $0.hasCompleteResponse() }

        let stopping = Task { await running.shutdown() }
        try await idle.wait(for: "the server to close the idle connection") { $0.closed }
        let closed = try await halfway.wait(for: "the server to close the half-sent head's connection") { $0.closed }
        #expect(closed.bytes.isEmpty, "closed without a response: \(closed.text)")
        await stopping.value
    }

    @Test("a connection that has sent nothing when the server stops is closed, and the server stops")
    func silentConnection() async throws {
        let running = try await ReferenceServer(engine: instantEngine, configuration: Self.configuration).start()
        let silent = try await RawConnection.open(port: running.port)
        defer { silent.closeLater() }
        // A served request on another connection: the server has accepted the silent one before it.
        let other = try await RawConnection.open(port: running.port)
        defer { other.closeLater() }
        try await other.send(Self.healthz)
        try await other.wait(for: "the other connection's response") { $0.hasCompleteResponse() }

        let stopping = Task { await running.shutdown() }
        let closed = try await silent.wait(for: "the server to close the silent connection") { $0.closed }
        #expect(closed.bytes.isEmpty)
        await stopping.value
    }

    @Test("cadence serve stops at SIGTERM while a connection has half sent its first head")
    func serveStopsWithAHalfSentHead() async throws {
        let serve = try await ServeProcess.start(["--request-timeout", "1h"])
        defer { serve.stop() }
        let port = try #require(URLComponents(string: serve.baseURL)?.port)
        let halfway = try await RawConnection.open(port: port)
        defer { halfway.closeLater() }  // a server that ignores it would otherwise run until the watchdog
        try await halfway.send("GET /healthz HTTP/1.1\r\n")

        kill(serve.pid, SIGTERM)
        let closed = try await halfway.wait(for: "serve to close the half-sent head's connection") { $0.closed }
        #expect(closed.bytes.isEmpty, "closed without a response: \(closed.text)")
        serve.stop()
        #expect(serve.process.terminationReason == .exit && serve.process.terminationStatus == 0)
    }
}
