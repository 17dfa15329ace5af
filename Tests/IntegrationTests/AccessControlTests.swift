import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTestFixtures
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// `ServerConfiguration.token`: every route but `/healthz` needs `Authorization: Bearer TOKEN`, the
/// WebSocket upgrade included, and every transport of the library can carry it.
@Suite("Access control with a token", .timeLimit(.minutes(2)))
struct AccessControlTests {
    static let token = "s3cret-token"
    static let configuration = ServerConfiguration(token: token)

    struct Route: Sendable, CustomTestStringConvertible {
        var method: HTTPMethod
        var path: String
        var body: String?
        var testDescription: String { "\(method) \(path)" }
    }

    /// Every HTTP route behind the token (ids need not exist: the token is checked before the route).
    static let routes: [Route] = [
        Route(method: .POST, path: "/v1/answers", body: #"{"query":"What is SSE?"}"#),
        Route(method: .GET, path: "/v1/answers/ans_x/events"),
        Route(method: .DELETE, path: "/v1/answers/ans_x"),
        Route(method: .POST, path: "/v1/conversations/c1/messages", body: #"{"query":"What is SSE?"}"#),
        Route(method: .GET, path: "/v1/conversations/c1/messages?since=0"),
        Route(method: .GET, path: "/metrics"),
        Route(
            method: .POST, path: "/v1/chat/completions",
            body: #"{"model":"m","messages":[{"role":"user","content":"What is SSE?"}]}"#),
        Route(method: .GET, path: "/v1/chat/completions/ans_x/events"),
        Route(method: .DELETE, path: "/v1/chat/completions/ans_x"),
    ]

    static func send(
        _ route: Route, to server: RunningServer, authorization: String?
    ) async throws
        -> (status: Int, headers: HTTPHeaders, body: String)
    {
        var request = HTTPClientRequest(url: server.baseURL + route.path)
        request.method = route.method
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let body = route.body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), response.headers, String(buffer: body))
    }

    @Test("without the token, or with a wrong one, every /v1 route and /metrics answer 401", arguments: routes)
    func refusedWithoutTheToken(route: Route) async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            for authorization in [
                nil, "Bearer wrong-token", "Bearer s3cret-token-but-longer", "Basic czNjcmV0LXRva2Vu",
            ] {
                let (status, headers, body) = try await Self.send(route, to: server, authorization: authorization)
                #expect(status == 401, "\(authorization ?? "no header")")
                #expect(headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
                let json = try JSONValue(parsing: body)
                #expect(json["error"]?["code"]?.stringValue == "unauthorized")
                #expect(json["error"]?["message"]?.stringValue?.isEmpty == false)
            }
        }
    }

    @Test("with the token every route is served as without one", arguments: routes)
    func servedWithTheToken(route: Route) async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            let (status, _, _) = try await Self.send(route, to: server, authorization: "Bearer \(Self.token)")
            // The made-up ids are unknown: the routes themselves answer, not the guard.
            let expected: Int =
                switch (route.method, route.path) {
                case (.POST, "/v1/answers"), (.POST, "/v1/chat/completions"), (.GET, "/metrics"): 200
                case (.POST, _): 201
                default: 404
                }
            #expect(status == expected)
            // The scheme is case-insensitive, as HTTP says.
            let (lowercase, _, _) = try await Self.send(route, to: server, authorization: "bearer \(Self.token)")
            #expect(lowercase == expected)
        }
    }

    @Test("/healthz is open without the token")
    func healthIsOpen() async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            let (status, _, body) = try await Self.send(
                Route(method: .GET, path: "/healthz"), to: server, authorization: nil)
            #expect(status == 200)
            #expect(body.contains("ok"))
        }
    }

    @Test("the WebSocket upgrade without the token, or with a wrong one, is a 401 and not upgraded")
    func webSocketUpgradeRefused() async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            for authorization in [nil, "Bearer wrong-token"] {
                let connection = try await RawConnection.open(port: server.port)
                defer { connection.closeLater() }
                let header = authorization.map { "Authorization: \($0)\r\n" } ?? ""
                try await connection.send(
                    "GET /v1/answers/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(header)\r\n")
                let reply = try await connection.wait(for: "the refusal and the close") { $0.closed }
                let response = try #require(reply.response())
                #expect(response.status == 401, "\(reply.text)")
                #expect(response.head.lowercased().contains("www-authenticate: bearer"))
                #expect(try JSONValue(parsing: response.body)["error"]?["code"]?.stringValue == "unauthorized")
            }
        }
    }

    @Test("the WebSocket upgrade with the token is upgraded")
    func webSocketUpgradeAccepted() async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.closeLater() }
            try await connection.send(
                "GET /v1/answers/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Authorization: Bearer \(Self.token)\r\n\r\n")
            let reply = try await connection.wait(for: "the upgrade") { $0.text.contains("\r\n\r\n") || $0.closed }
            #expect(reply.text.hasPrefix("HTTP/1.1 101"), "\(reply.text)")
            await connection.close()
        }
    }

    static func transport(_ name: String, _ server: RunningServer, token: String?) -> any ResearchTransport {
        switch name {
        case "websocket": WebSocketTransport(baseURL: server.baseURL, bearerToken: token)
        case "polling": PollingTransport(baseURL: server.baseURL, interval: .milliseconds(20), bearerToken: token)
        default: SSETransport(baseURL: server.baseURL, bearerToken: token)
        }
    }

    @Test(
        "every transport carries the token, and without it fails at once with a clear error",
        arguments: ["sse", "websocket", "polling"])
    func transports(name: String) async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            let request = AnswerRequest(query: "What is SSE?")
            let (_, served) = await openAndReceive(Self.transport(name, server, token: Self.token), request)
            #expect(served.error == nil, "\(String(describing: served.error))")
            #expect(served.endsWithComplete)

            for (token, says) in [(nil, "needs a token"), ("wrong-token", "refused the token")] {
                let (_, refused) = await openAndReceive(Self.transport(name, server, token: token), request)
                let error = try #require(refused.clientError, "\(String(describing: refused.error))")
                #expect(error.status == 401)
                #expect(!error.retryable)
                #expect(error.message.contains(says), "\(error.message)")
            }
        }
    }

    @Test("a 401 ends an AnswerStream after one attempt, with the status", arguments: ["sse", "websocket", "polling"])
    func answerStreamDoesNotRetry(name: String) async throws {
        try await withServer(engine: instantEngine, configuration: Self.configuration) { server in
            var updates: [AnswerUpdate] = []
            for await update in AnswerStream(
                request: AnswerRequest(query: "What is SSE?"), transport: Self.transport(name, server, token: nil))
            {
                updates.append(update)
            }
            guard case .failed(let failure)? = updates.last else {
                Issue.record("expected a failure, got \(updates)")
                return
            }
            #expect(failure.status == 401)
            #expect(failure.attempts == 1)
            #expect(!updates.contains { if case .reconnecting = $0 { true } else { false } })
        }
    }

    @Test("the cancelling DELETE carries the token", arguments: ["sse", "websocket", "polling"])
    func cancelCarriesTheToken(name: String) async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine, configuration: Self.configuration) { server in
            let transport = Self.transport(name, server, token: Self.token)
            let connection = try await transport.open(AnswerRequest(query: "What is SSE?"), resume: nil)
            let id = try #require(connection.answerID)
            try await transport.cancelAnswer(id: id)
            await engine.cancelled.wait()
            await #expect(throws: CadenceClientError.self) {
                try await Self.transport(name, server, token: nil).cancelAnswer(id: id)
            }
        }
    }
}
