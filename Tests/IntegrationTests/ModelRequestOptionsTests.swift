import CadenceClient
import CadenceCore
import CadenceTesting
import Testing

/// JSON mode and per-request settings reach each provider in its own form, over a real socket.
@Suite("Model request options over loopback")
struct ModelRequestOptionsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: ModelProvider.Kind
        var fixture: String
        var route: String
        var basePath: String
        /// What the JSON-mode body must contain.
        var jsonMarker: String?
        var testDescription: String { kind.rawValue }
    }

    static let cases: [Case] = [
        Case(kind: .openAI, fixture: "openai-chat-basic-usage.txt", route: "/v1/chat/completions", basePath: "/v1",
             jsonMarker: #""response_format":{"type":"json_object"}"#),
        Case(kind: .ollama, fixture: "ollama-generate-ndjson-docs.txt", route: "/api/chat", basePath: "",
             jsonMarker: #""format":"json""#),
        Case(kind: .gemini, fixture: "gemini-basic-short-crlf.txt", route: "/v1beta/models/*", basePath: "",
             jsonMarker: #""responseMimeType":"application/json""#),
        Case(kind: .anthropic, fixture: "anthropic-basic-text.txt", route: "/v1/messages", basePath: "", jsonMarker: nil),
    ]

    @Test("JSON mode is asked for in the provider's own way; plain requests do not ask", arguments: cases)
    func jsonMode(testCase: Case) async throws {
        let bytes = try SharedFixtures.streamBytes(testCase.fixture)
        let server = try await ReplayServer.start(routes: [testCase.route: [.stream(bytes)]])
        defer { Task { await server.shutdown() } }
        let client = ModelClient(
            provider: ModelProvider(kind: testCase.kind, baseURL: server.baseURL + testCase.basePath, model: "m"))
        for try await _ in client.stream([ChatTurn(role: "user", content: "plan")], options: ModelRequestOptions(json: true)) {}
        for try await _ in client.stream([ChatTurn(role: "user", content: "write")]) {}
        let requests = server.requests
        try #require(requests.count == 2)
        for marker in ["response_format", "\"format\"", "responseMimeType"] {
            #expect(!requests[1].body.contains(marker), "a plain request must not ask for JSON")
        }
        if let marker = testCase.jsonMarker {
            #expect(requests[0].body.contains(marker))
        } else {
            // Anthropic has no JSON switch: the body stays a plain Messages request.
            #expect(!requests[0].body.contains("response_format"))
        }
    }

    @Test("max tokens and temperature are sent when set")
    func samplingSettings() async throws {
        let bytes = try SharedFixtures.streamBytes("openai-chat-basic-usage.txt")
        let server = try await ReplayServer.start(routes: ["/v1/chat/completions": [.stream(bytes)]])
        defer { Task { await server.shutdown() } }
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: server.baseURL + "/v1", model: "m"))
        let options = ModelRequestOptions(maxTokens: 300, temperature: 0.2)
        for try await _ in client.stream([ChatTurn(role: "user", content: "Hi")], options: options) {}
        let body = try #require(server.requests.first?.body)
        #expect(body.contains(#""max_tokens":300"#))
        #expect(body.contains(#""temperature":0.2"#))
    }
}
