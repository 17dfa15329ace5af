import AsyncHTTPClient
import CadenceCore
import CadenceServer
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The browser rules over real sockets: a page's `Origin` (403), a `POST` body that is not JSON
/// (415) and a `Host` the server does not answer to (421) are refused before any route, WebSocket
/// upgrades included; the preflights of a `--cors-origin` are answered, and its responses carry
/// CORS headers.
@Suite("Browser rules on the wire", .timeLimit(.minutes(2)))
struct BrowserGuardTests {
    static let allowed = "http://localhost:5173"
    static let evil = "https://evil.example"

    static var configuration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.corsOrigins = [allowed]
        return configuration
    }

    /// Sends `head` (without its final blank line) and an optional body on a new connection, and
    /// returns the response.
    static func exchange(
        _ head: String, body: String = "", port: Int
    ) async throws
        -> (status: Int, head: String, body: String)
    {
        let connection = try await RawConnection.open(port: port)
        defer { connection.closeLater() }
        try await connection.send(head + "\r\n" + body)
        let reply = try await connection.wait(for: "the response") { $0.closed || $0.hasCompleteResponse() }
        let response = try #require(reply.response(), "\(reply)")
        return (response.status, response.head, response.body)
    }

    static func code(_ body: String) -> String? {
        (try? JSONValue(parsing: body))?["error"]?["code"]?.stringValue
    }

    static func webSocketUpgrade(origin: String?, host: String = "127.0.0.1") -> String {
        "GET /v1/answers/ws HTTP/1.1\r\nHost: \(host)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (origin.map { "Origin: \($0)\r\n" } ?? "")
    }

    @Test(
        "a page from another origin is refused with 403 and no CORS headers: POST, GET events, DELETE, WebSocket",
        arguments: [
            "POST /v1/answers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n",
            "POST /v1/answers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n",
            "GET /v1/answers/ans_x/events HTTP/1.1\r\nHost: 127.0.0.1\r\n",
            "DELETE /v1/answers/ans_x HTTP/1.1\r\nHost: 127.0.0.1\r\n",
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",
            webSocketUpgrade(origin: nil),
        ])
    func foreignOriginRefused(head: String) async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            let reply = try await Self.exchange(head + "Origin: \(Self.evil)\r\n", port: server.port)
            #expect(reply.status == 403, "\(reply.head)")
            #expect(Self.code(reply.body) == "origin_not_allowed")
            #expect(!reply.head.lowercased().contains("access-control-"), "\(reply.head)")
        }
    }

    @Test("a WebSocket from another origin is not upgraded; from the allowed one, or with no Origin, it is")
    func webSocketOrigin() async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            for (origin, upgraded) in [(Self.evil, false), ("null", false), (Self.allowed, true), (nil, true)] {
                let connection = try await RawConnection.open(port: server.port)
                defer { connection.closeLater() }
                try await connection.send(Self.webSocketUpgrade(origin: origin) + "\r\n")
                let reply = try await connection.wait(for: "the answer to the upgrade") {
                    $0.text.contains("\r\n\r\n") || $0.closed
                }
                #expect(
                    reply.text.hasPrefix(upgraded ? "HTTP/1.1 101" : "HTTP/1.1 403"), "\(origin ?? "none"): \(reply)")
                await connection.close()
            }
        }
    }

    @Test(
        "a POST body that is not application/json gets 415 on every POST route",
        arguments: [
            ("/v1/answers", "Content-Type: text/plain;charset=UTF-8\r\n"),
            ("/v1/answers", "Content-Type: application/x-www-form-urlencoded\r\n"),
            ("/v1/answers", ""),
            ("/v1/conversations/c1/messages", "Content-Type: text/plain\r\n"),
        ])
    func nonJSONBodyRefused(path: String, contentType: String) async throws {
        try await withServer(engine: instantEngine) { server in
            let body = #"{"query":"What is SSE?"}"#
            let reply = try await Self.exchange(
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(contentType)Content-Length: \(body.utf8.count)\r\n",
                body: body, port: server.port)
            #expect(reply.status == 415, "\(reply.head)")
            #expect(Self.code(reply.body) == "unsupported_media_type")
            #expect(reply.head.lowercased().contains("content-type: application/json"))
        }
    }

    @Test(
        "a Host the server does not answer to gets 421, HTTP and WebSocket alike (DNS rebinding)",
        arguments: [
            "GET /healthz HTTP/1.1\r\nHost: evil.example\r\n",
            "POST /v1/answers HTTP/1.1\r\nHost: evil.example:8080\r\nContent-Type: application/json\r\nContent-Length: 0\r\n",
            webSocketUpgrade(origin: nil, host: "evil.example"),
            webSocketUpgrade(origin: "http://evil.example", host: "evil.example"),
        ])
    func foreignHostRefused(head: String) async throws {
        try await withServer(engine: instantEngine) { server in
            let reply = try await Self.exchange(head, port: server.port)
            #expect(reply.status == 421, "\(reply.head)")
            #expect(Self.code(reply.body) == "misdirected_request")
        }
    }

    @Test("localhost, the bound address and a public host are answered")
    func knownHostsServed() async throws {
        var configuration = ServerConfiguration()
        configuration.publicHosts = ["cadence.test"]
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "localhost", "cadence.test"] {
                let connection = try await RawConnection.open(port: server.port)
                defer { connection.closeLater() }
                try await connection.send("GET /healthz HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                let reply = try await connection.wait(for: "the response") { $0.hasCompleteResponse() }
                #expect(reply.response()?.status == 200, "\(host): \(reply)")
                await connection.close()
            }
        }
    }

    @Test("the preflight of an allowed origin gets 204 with the CORS headers; another origin's gets 403 without")
    func preflight() async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            let preflight =
                "OPTIONS /v1/answers HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type,authorization\r\n"
            let allowed = try await Self.exchange(preflight + "Origin: \(Self.allowed)\r\n", port: server.port)
            #expect(allowed.status == 204, "\(allowed.head)")
            let head = allowed.head.lowercased()
            #expect(head.contains("access-control-allow-origin: \(Self.allowed)\r\n"))
            #expect(head.contains("access-control-allow-methods: get, post, delete"))
            #expect(head.contains("access-control-allow-headers: authorization, content-type, last-event-id"))
            #expect(head.contains("access-control-max-age: 600"))
            #expect(head.contains("vary: origin"))

            let refused = try await Self.exchange(preflight + "Origin: \(Self.evil)\r\n", port: server.port)
            #expect(refused.status == 403, "\(refused.head)")
            #expect(!refused.head.lowercased().contains("access-control-"), "\(refused.head)")
        }
    }

    static func post(_ server: RunningServer, origin: String?, token: String? = nil) async throws -> HTTPClientResponse
    {
        var request = HTTPClientRequest(url: server.baseURL + "/v1/answers")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let origin { request.headers.add(name: "Origin", value: origin) }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(string: #"{"query":"What is SSE?"}"#))
        return try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    }

    @Test("the allowed origin's answers and refusals carry its CORS headers; the server's own origin is served")
    func allowedOriginHeaders() async throws {
        var configuration = Self.configuration
        configuration.token = "s3cret"
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let served = try await Self.post(server, origin: Self.allowed, token: "s3cret")
            #expect(served.status == .ok)
            #expect(served.headers.first(name: "Access-Control-Allow-Origin") == Self.allowed)
            #expect(served.headers.first(name: "Vary") == "Origin")
            #expect(served.headers.first(name: "Access-Control-Expose-Headers")?.contains("Cadence-Answer-ID") == true)
            let text = String(buffer: try await served.body.collect(upTo: 1 << 20))
            #expect(text.contains("event: complete"))

            // A 401 tells the page why, so it can ask for a token.
            let unauthorized = try await Self.post(server, origin: Self.allowed)
            #expect(unauthorized.status == .unauthorized)
            #expect(unauthorized.headers.first(name: "Access-Control-Allow-Origin") == Self.allowed)

            let sameOrigin = try await Self.post(server, origin: server.baseURL, token: "s3cret")
            #expect(sameOrigin.status == .ok)
            #expect(sameOrigin.headers.first(name: "Access-Control-Allow-Origin") == nil)
            _ = try await sameOrigin.body.collect(upTo: 1 << 20)

            let noOrigin = try await Self.post(server, origin: nil, token: "s3cret")
            #expect(noOrigin.status == .ok)
            #expect(noOrigin.headers.first(name: "Access-Control-Allow-Origin") == nil)
            _ = try await noOrigin.body.collect(upTo: 1 << 20)
        }
    }

    @Test("a CORS origin that is not an origin stops the server from starting, saying why")
    func invalidOriginRefusedAtStart() async throws {
        var configuration = ServerConfiguration()
        configuration.corsOrigins = ["*"]
        await #expect {
            try await ReferenceServer(engine: instantEngine, configuration: configuration).start()
        } throws: { error in
            "\(error)".contains("any web page")
        }
    }
}
