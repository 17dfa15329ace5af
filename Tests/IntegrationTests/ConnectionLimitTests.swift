import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Foundation
import NIOCore
import Testing

/// The server's protections against clients that hold it up: the request read timeout (slowloris)
/// and bodies refused from their declared length. The connection limits are in
/// ``ConnectionHoardingTests``.
@Suite("Connection limits", .timeLimit(.minutes(2)))
struct ConnectionLimitTests {
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test(
        "a client trickling its head is closed after the read timeout, while others are served and streams and idle connections live on"
    )
    func slowlorisIsClosed() async throws {
        let engine = ScriptedEngine()
        var configuration = ServerConfiguration()
        configuration.requestReadTimeout = .seconds(1)
        configuration.idleTimeout = .seconds(60)  // the idle connection outlives the head timeout
        try await withServer(engine: engine, configuration: configuration) { server in
            // A stream and an idle keep-alive connection, both opened before the slowloris starts.
            var stream = try await QuietStream.open(on: server, engine: engine)
            let idle = try await RawConnection.open(port: server.port)
            defer { idle.closeLater() }
            try await idle.send(Self.healthz)
            let first = try await idle.wait(for: "the idle connection's first response") { $0.hasCompleteResponse() }
            let firstLength = try #require(first.response()?.length)

            // The slowloris: one byte of a head that never ends, every 200 ms.
            let slowloris = try await RawConnection.open(port: server.port)
            defer { slowloris.closeLater() }
            let head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + String(repeating: "a", count: 10_000)
            let trickling = FaultLatch()
            let trickle = Task {
                defer { trickling.open() }  // also if a send fails early: the wait below never hangs
                for (index, byte) in head.enumerated() {
                    try await slowloris.send(String(byte))
                    if index == 2 { trickling.open() }
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            defer { trickle.cancel() }
            await trickling.wait()

            // Meanwhile another client is served normally.
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(30))
            #expect(response.status == .ok)

            let closed = try await slowloris.wait(for: "the server to close the slowloris", within: .seconds(30)) {
                $0.closed
            }
            #expect(closed.bytes.isEmpty, "closed without a response: \(closed.text)")

            // The timeout has passed since the stream and the idle connection opened; both still work.
            #expect(!idle.snapshot.closed)
            try await idle.send(Self.healthz)
            let second = try await idle.wait(for: "the idle connection's second response") {
                $0.hasCompleteResponse(skipping: firstLength)
            }
            #expect(second.response(skipping: firstLength)?.status == 200)
            try await stream.finish()
            await idle.close()
        }
    }

    @Test("a connection that sends nothing is closed after the read timeout")
    func silentConnectionIsClosed() async throws {
        var configuration = ServerConfiguration()
        configuration.requestReadTimeout = .seconds(1)
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let silent = try await RawConnection.open(port: server.port)
            defer { silent.closeLater() }
            let closed = try await silent.wait(for: "the server to close the silent connection") { $0.closed }
            #expect(closed.bytes.isEmpty)
        }
    }

    @Test("a Content-Length over the limit gets 413 at once, without the body being sent")
    func declaredBodyTooLarge() async throws {
        var configuration = ServerConfiguration()
        configuration.maxRequestBytes = 1_000
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            for path in ["/v1/answers", "/v1/conversations/c1/messages"] {
                let connection = try await RawConnection.open(port: server.port)
                defer { connection.closeLater() }
                // The head only: a server that waited for the body would never answer.
                try await connection.send(
                    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 100000000\r\n\r\n")
                let reply = try await connection.wait(for: "the 413") { $0.hasCompleteResponse() || $0.closed }
                let response = try #require(reply.response(), "\(reply.text)")
                #expect(response.status == 413)
                #expect(response.head.lowercased().contains("connection: close"))
                let json = try JSONValue(parsing: response.body)
                #expect(json["error"]?["code"]?.stringValue == "too_large")
                #expect(json["error"]?["message"]?.stringValue?.contains("1000") == true)
                try await connection.wait(for: "the close after the 413") { $0.closed }
            }
        }
    }

    @Test("a chunked body over the limit is still refused with 413 as it is read")
    func chunkedBodyTooLarge() async throws {
        var configuration = ServerConfiguration()
        configuration.maxRequestBytes = 1_000
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            var request = HTTPClientRequest(url: server.baseURL + "/v1/answers")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            let (chunks, writer) = AsyncStream<ByteBuffer>.makeStream()
            for _ in 0..<2 { writer.yield(ByteBuffer(string: String(repeating: "x", count: 600))) }
            writer.finish()
            request.body = .stream(chunks, length: .unknown)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 413)
        }
    }
}
