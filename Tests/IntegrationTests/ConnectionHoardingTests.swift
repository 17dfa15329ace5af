import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
import NIOCore
import Testing

/// Connections cannot be hoarded, on the real server over real sockets: resting connections take no
/// `--max-connections` place, idle keep-alive connections and slow bodies are closed after their
/// timeouts, and one client address may open only so many connections.
@Suite("Connection hoarding", .timeLimit(.minutes(2)))
struct ConnectionHoardingTests {
    static let healthz = ConnectionLimitTests.healthz
    static let token = "s3cret-token"

    /// An authorised `POST /v1/answers`, read to its end.
    static func ask(_ server: RunningServer, timeout: TimeAmount = .seconds(30)) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: server.baseURL + "/v1/answers")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"query":"What is SSE?"}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 1 << 24)
        return (Int(response.status.code), String(buffer: body))
    }

    /// Opens `count` connections that each send one `/healthz`, read its response and then rest (one
    /// after another: each is counted by the server before the next opens).
    static func openResting(_ count: Int, port: Int) async throws -> [RawConnection] {
        var connections: [RawConnection] = []
        for _ in 0..<count {
            let connection = try await RawConnection.open(port: port)
            connections.append(connection)
            try await connection.send(healthz)
            try await connection.wait(for: "the /healthz response") { $0.hasCompleteResponse() }
        }
        return connections
    }

    @Test("twenty connections that sent one /healthz and went silent do not lock out an authorised client")
    func restingConnectionsTakeNoPlace() async throws {
        var configuration = ServerConfiguration(token: Self.token)
        configuration.maxConnections = 20
        configuration.requestReadTimeout = .seconds(60)  // the silent ones stay open throughout
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let silent = try await Self.openResting(20, port: server.port)
            defer { for connection in silent { connection.closeLater() } }
            // A server that counted them would leave this one in its listen backlog until they close.
            let (status, body) = try await Self.ask(server, timeout: .seconds(15))
            #expect(status == 200)
            #expect(body.contains("event: complete"), "\(body.suffix(300))")
            #expect(silent.allSatisfy { !$0.snapshot.closed }, "the idle connections were closed, not just uncounted")
        }
    }

    @Test("a request past --max-connections busy connections gets 503 server_busy; finished requests free their place")
    func busyLimit() async throws {
        let engine = ScriptedEngine()
        var configuration = ServerConfiguration(token: Self.token)
        configuration.maxConnections = 1
        try await withServer(engine: engine, configuration: configuration) { server in
            // One after another, each request takes and gives back the one place.
            for _ in 0..<3 {
                let health = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(30))
                #expect(health.status == .ok)
            }
            // A streaming answer holds it…
            var stream = try await QuietStream.open(on: server, engine: engine, bearerToken: Self.token)
            // …so another request is refused at once.
            let refused = try await RawConnection.open(port: server.port)
            defer { refused.closeLater() }
            try await refused.send(Self.healthz)
            let reply = try await refused.wait(for: "the 503") { $0.hasCompleteResponse() }
            let response = try #require(reply.response())
            #expect(response.status == 503)
            #expect(response.head.lowercased().contains("retry-after: 1"))
            let json = try JSONValue(parsing: response.body)
            #expect(json["error"]?["code"]?.stringValue == "server_busy")

            try await stream.finish()
            let health = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(30))
            #expect(health.status == .ok)
        }
    }

    @Test("an idle keep-alive connection is closed after the idle timeout, while a quiet stream lives on")
    func idleKeepAliveIsClosed() async throws {
        let engine = ScriptedEngine()
        var configuration = ServerConfiguration()
        configuration.idleTimeout = .seconds(1)
        try await withServer(engine: engine, configuration: configuration) { server in
            var stream = try await QuietStream.open(on: server, engine: engine)

            let idle = try await RawConnection.open(port: server.port)
            defer { idle.closeLater() }
            try await idle.send(Self.healthz)
            try await idle.wait(for: "the response") { $0.hasCompleteResponse() }
            let closed = try await idle.wait(for: "the server to close the idle connection", within: .seconds(30)) {
                $0.closed
            }
            #expect(closed.response()?.status == 200)

            // The stream was quiet for longer than the idle timeout, and still works.
            try await stream.finish()
        }
    }

    @Test("a request body slower than the body timeout gets 408 and its connection closes")
    func slowBodyIsClosed() async throws {
        var configuration = ServerConfiguration()
        configuration.requestBodyTimeout = .seconds(1)
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let slow = try await RawConnection.open(port: server.port)
            defer { slow.closeLater() }
            try await slow.send(
                "POST /v1/answers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"query\":")
            let closed = try await slow.wait(for: "the server to close the slow body", within: .seconds(30)) {
                $0.closed
            }
            let response = try #require(closed.response(), "closed without a response: \(closed.text)")
            #expect(response.status == 408)
            let json = try JSONValue(parsing: response.body)
            #expect(json["error"]?["code"]?.stringValue == "request_timeout")
        }
    }

    @Test("past --max-connections-per-client a client address's new connections are closed at once")
    func perClientCap() async throws {
        var configuration = ServerConfiguration()
        configuration.maxConnectionsPerClient = 3
        configuration.requestReadTimeout = .seconds(60)
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            var open = try await Self.openResting(3, port: server.port)
            defer { for connection in open { connection.closeLater() } }
            let extra = try await RawConnection.open(port: server.port)
            defer { extra.closeLater() }
            let closed = try await extra.wait(for: "the server to close the extra connection") { $0.closed }
            #expect(closed.bytes.isEmpty)

            // One closes; once the server has seen that close, a new connection is served.
            await open.removeFirst().close()
            let served = try await withDeadline(.seconds(20), "a new connection served after one closed") {
                while true {
                    let next = try await RawConnection.open(port: server.port)
                    defer { next.closeLater() }
                    // Closed at once while the server still counts the first: the send may fail. Try again.
                    guard (try? await next.send(Self.healthz)) != nil else { continue }
                    let reply = try await next.wait(for: "a response or a close") {
                        $0.hasCompleteResponse() || $0.closed
                    }
                    if let response = reply.response() { return response.status }
                }
            }
            #expect(served == 200)
        }
    }

    @Test("a timeout far past any real need serves requests: the conversion to a timer saturates, never wraps")
    func hugeTimeoutServes() async throws {
        var configuration = ServerConfiguration()
        configuration.requestReadTimeout = .seconds(10_000_000_000)  // once wrapped to a negative timer
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(30))
            #expect(response.status == .ok)
        }
    }

    @Test("cadence serve with every timeout at its longest, a year, serves requests")
    func longestTimeoutsServe() async throws {
        let serve = try await ServeProcess.start([
            "--request-timeout", "8760h", "--idle-timeout", "8760h", "--body-timeout", "31536000",
        ])
        defer { serve.stop() }
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: serve.baseURL + "/healthz"), timeout: .seconds(30))
        #expect(response.status == .ok)
    }
}
