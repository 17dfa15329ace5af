import AsyncHTTPClient
import CadenceCore
import CadenceServer
import NIOCore
import NIOHTTP1
import Testing

/// Errors of `/v1/chat/completions` in OpenAI's shape, `{"error": {"message", "type", "code",
/// "param"}}`, with the status of the same refusal elsewhere, from the guard (401, 413, 415, 429,
/// 503) and the routes (400, 404, 409, 416) alike; other routes keep Cadence's shape.
@Suite("OpenAI-compatible chat completions: errors and ownership", .timeLimit(.minutes(2)))
struct ChatCompletionErrorTests {
    static let missing = "ans_00000000000000000000000000000000"

    /// Checks that `response` is an OpenAI error with this status, type and code, and a message.
    static func expectOpenAIError(
        _ response: ChatResponse, status: Int, type: String, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(response.body)", sourceLocation: sourceLocation)
        let error = response.json?["error"]
        #expect(error?["type"]?.stringValue == type, "\(response.body)", sourceLocation: sourceLocation)
        #expect(error?["code"]?.stringValue == code, "\(response.body)", sourceLocation: sourceLocation)
        #expect(error?["message"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(error?.objectValue?.keys.sorted() == ["code", "message", "param", "type"], sourceLocation: sourceLocation)
    }

    /// Opens a streaming completion and returns its answer id with the response still open.
    static func open(_ server: RunningServer, authorization: String? = nil) async throws -> (String, HTTPClientResponse) {
        var request = HTTPClientRequest(url: server.baseURL + "/v1/chat/completions")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.body = .bytes(ByteBuffer(string: ChatClient.body("Hi", stream: true)))
        let response = try await AnswerClient.client.execute(request, timeout: .seconds(30))
        return (try #require(response.headers.first(name: "Cadence-Answer-ID")), response)
    }

    @Test("a body that is not JSON, or has no user message, or a bad role or part, is 400 invalid_request_error")
    func badRequests() async throws {
        try await withServer(engine: instantEngine) { server in
            for body in [
                "{not json", #"[1]"#, #"{"messages": "Hi"}"#, #"{"messages": [{"role": "system", "content": "x"}]}"#,
                #"{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hel"}]}"#,
                #"{"messages": [{"role": "tool", "content": "42"}, {"role": "user", "content": "Hi"}]}"#,
                #"{"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}"#,
                #"{"stream": "yes", "messages": [{"role": "user", "content": "Hi"}]}"#,
                #"{"messages": [{"role": "user", "content": "   "}]}"#,
            ] {
                let response = try await ChatClient.complete(server, body)
                Self.expectOpenAIError(response, status: 400, type: "invalid_request_error", code: "invalid_request")
            }
        }
    }

    @Test("the guard's refusals on this route are in OpenAI's shape: 401, 413, 415; /v1/answers keeps Cadence's")
    func guardRefusals() async throws {
        var configuration = AccessControlTests.configuration
        configuration.maxRequestBytes = 200
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let url = server.baseURL + "/v1/chat/completions"
            let bearer = "Bearer \(AccessControlTests.token)"
            let body = ChatClient.body("Hi", stream: false)
            let unauthorized = try await ChatClient.send(.POST, url, body: body)
            Self.expectOpenAIError(unauthorized, status: 401, type: "authentication_error", code: "unauthorized")
            #expect(unauthorized.headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let large = try await ChatClient.send(
                .POST, url, body: ChatClient.body(String(repeating: "x", count: 300), stream: false), authorization: bearer)
            Self.expectOpenAIError(large, status: 413, type: "invalid_request_error", code: "too_large")
            let plain = try await ChatClient.send(
                .POST, url, body: body, headers: [("Content-Type", "text/plain")], authorization: bearer)
            Self.expectOpenAIError(plain, status: 415, type: "invalid_request_error", code: "unsupported_media_type")
            let elsewhere = try await ChatClient.send(.POST, server.baseURL + "/v1/answers", body: #"{"query":"Hi"}"#)
            #expect(elsewhere.status == 401)
            #expect(elsewhere.json?["error"]?.objectValue?.keys.sorted() == ["code", "message"])
        }
    }

    @Test("a query over the limit is 413; over the rate limit, 429 rate_limit_error")
    func limits() async throws {
        var configuration = ServerConfiguration(maxQueryCharacters: 10)
        configuration.rateLimit = 2
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let long = try await ChatClient.complete(server, ChatClient.body("a question longer than ten", stream: false))
            Self.expectOpenAIError(long, status: 413, type: "invalid_request_error", code: "too_large")
            _ = try await ChatClient.complete(server, ChatClient.body("Hi", stream: false))
            let limited = try await ChatClient.complete(server, ChatClient.body("Hi", stream: false))
            Self.expectOpenAIError(limited, status: 429, type: "rate_limit_error", code: "rate_limited")
        }
    }

    @Test("a node at its limit of answers answers 503 server_error")
    func busy() async throws {
        try await withServer(engine: HeldEngine(), configuration: ServerConfiguration(maxAnswers: 1)) { server in
            let (_, held) = try await Self.open(server)
            let busy = try await ChatClient.complete(server, ChatClient.body("Hi", stream: true))
            Self.expectOpenAIError(busy, status: 503, type: "server_error", code: "server_busy")
            _ = held
        }
    }

    @Test("resume: an unknown id is 404, a cursor past the end 416, a malformed one 400, as on /v1/answers")
    func resumeErrors() async throws {
        try await withServer(engine: instantEngine) { server in
            let finished = try await ChatClient.complete(server, ChatClient.body("What is SSE?", stream: true))
            let id = try #require(finished.answerID)
            let (_, events) = try await ChatClient.answerText(server, id)
            let base = server.baseURL + "/v1/chat/completions/"
            let unknown = try await ChatClient.send(.GET, base + Self.missing + "/events")
            Self.expectOpenAIError(unknown, status: 404, type: "invalid_request_error", code: "answer_not_found")
            let past = try await ChatClient.send(
                .GET, base + "chatcmpl-\(id)/events", headers: [("Last-Event-ID", String(events.count + 1))])
            Self.expectOpenAIError(past, status: 416, type: "invalid_request_error", code: "cursor_out_of_range")
            let malformed = try await ChatClient.send(.GET, base + "\(id)/events?after=x")
            Self.expectOpenAIError(malformed, status: 400, type: "invalid_request_error", code: "invalid_request")
            let atEnd = try await ChatClient.send(.GET, base + "\(id)/events?after=\(events.count)")
            #expect(atEnd.status == 200)
            #expect(atEnd.frames.map(\.data) == ["[DONE]"])
        }
    }

    @Test("another subject's completion: resume and DELETE get the 404 of an id that never existed")
    func ownership() async throws {
        try await withServer(engine: HeldEngine(), configuration: JWTTestKeys.hs256Configuration()) { server in
            let ada = try await JWTTestKeys.bearer("ada")
            let bob = try await JWTTestKeys.bearer("bob")
            let (id, held) = try await Self.open(server, authorization: ada)
            let base = server.baseURL + "/v1/chat/completions/"
            for (method, path) in [(HTTPMethod.GET, "/events"), (.DELETE, ""), (.GET, "/events?after=1")] {
                let theirs = try await ChatClient.send(method, base + id + path, authorization: bob)
                let none = try await ChatClient.send(method, base + Self.missing + path, authorization: bob)
                Self.expectOpenAIError(theirs, status: 404, type: "invalid_request_error", code: "answer_not_found")
                #expect(
                    theirs.body.replacingOccurrences(of: id, with: "ID")
                        == none.body.replacingOccurrences(of: Self.missing, with: "ID"))
            }
            let mine = try await ChatClient.send(.DELETE, base + id, authorization: ada)
            #expect(mine.status == 200)
            _ = held
        }
    }
}
