import CadenceClient
import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Testing

@Suite("Model providers over loopback")
struct ModelClientTests {
    @Test("a real ModelClient streams a replayed capture to its expected text", arguments: ProviderReplayCase.all)
    func replay(testCase: ProviderReplayCase) async throws {
        try await testCase.withReplayServer { server in
            let provider = testCase.provider(at: server, apiKey: "sk-secret")
            var text = ""
            var finished = false
            for try await event in ModelClient(provider: provider).stream([ChatTurn(role: "user", content: "Hi")]) {
                if case .text(let delta, 0) = event { text += delta }
                if case .finish(let reason, 0) = event {
                    finished = true
                    #expect(reason != .truncated)
                }
            }
            #expect(text == (try SharedFixtures.expectedText(testCase.fixture)))
            #expect(finished)
            let request = try #require(server.requests.first)
            #expect(request.body.contains("\"stream\":true") || testCase.kind == .gemini)
            #expect(request.body.contains("Hi"))
            switch testCase.kind {
            case .openAI, .openAIResponses, .ollama: #expect(request.headers["authorization"] == "Bearer sk-secret")
            case .anthropic:
                #expect(request.headers["x-api-key"] == "sk-secret")
                #expect(request.headers["anthropic-version"] != nil)
            case .gemini:
                #expect(request.headers["x-goog-api-key"] == "sk-secret")
                #expect(request.path.contains("test-model:streamGenerateContent?alt=sse"))
            }
        }
    }

    @Test(
        "an HTTP error before the stream is typed, with the provider's message and retryability",
        arguments: [
            (429, ["retry-after": "7"], #"{"error":{"message":"Rate limit reached","type":"rate_limit"}}"#, true, 7_000),
            (500, [:], #"{"error":{"message":"upstream exploded"}}"#, true, nil),
            (529, ["retry-after-ms": "250"], #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, true, 250),
            (401, [:], #"{"error":{"message":"Incorrect API key provided"}}"#, false, nil),
            (400, [:], #"{"error":"model 'nope' not found"}"#, false, nil),
        ] as [(Int, [String: String], String, Bool, Int?)])
    func httpErrors(status: Int, headers: [String: String], body: String, retryable: Bool, retryAfterMs: Int?)
        async throws
    {
        let server = try await ReplayServer.start(routes: ["/v1/chat/completions": [.status(status, headers: headers, body: body)]])
        defer { Task { await server.shutdown() } }
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: server.baseURL + "/v1", model: "m", apiKey: "sk-hidden"))
        await #expect {
            for try await _ in client.stream([ChatTurn(role: "user", content: "Hi")]) {}
        } throws: { error in
            guard let error = error as? CadenceClientError else { return false }
            let message = try! JSONValue(parsing: body)
            let providerMessage = message["error"]?["message"]?.stringValue ?? message["error"]?.stringValue ?? ""
            return error.code == .httpStatus && error.status == status && error.retryable == retryable
                && error.retryAfter == retryAfterMs.map { .milliseconds($0) }
                && error.message.contains(providerMessage) && !error.message.contains("sk-hidden")
        }
    }

    @Test("a stream cut before its terminator ends truncated with the partial text kept")
    func truncated() async throws {
        // Cut the capture in the middle of an event, long before `[DONE]`.
        let bytes = Array(try SharedFixtures.streamBytes("openai-chat-basic-usage.txt").prefix(4000))
        let server = try await ReplayServer.start(routes: ["/v1/chat/completions": [.stream(bytes)]])
        defer { Task { await server.shutdown() } }
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: server.baseURL + "/v1", model: "m"))
        var received = ""
        var reasons: [FinishReason] = []
        for try await event in client.stream([ChatTurn(role: "user", content: "Hi")]) {
            if case .text(let delta, 0) = event { received += delta }
            if case .finish(let reason, 0) = event { reasons.append(reason) }
        }
        #expect(reasons == [.truncated])
        let expected = try SharedFixtures.expectedText("openai-chat-basic-usage.txt")
        #expect(received.count > 10)
        #expect(expected.hasPrefix(received) && received != expected)
    }
}
