import CadenceClient
import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Testing

/// JSON mode and per-request settings reach each provider in its own form, over a real socket.
@Suite("Model request options over loopback")
struct ModelRequestOptionsTests {
    /// What each provider's JSON-mode body must contain (Anthropic has no JSON switch).
    static let jsonMarkers: [ModelProvider.Kind: String] = [
        .openAI: #""response_format":{"type":"json_object"}"#,
        .ollama: #""format":"json""#,
        .gemini: #""responseMimeType":"application/json""#,
    ]

    @Test(
        "JSON mode is asked for in the provider's own way; plain requests do not ask",
        arguments: ProviderReplayCase.onePerProvider)
    func jsonMode(testCase: ProviderReplayCase) async throws {
        try await testCase.withReplayServer { server in
            let client = ModelClient(provider: testCase.provider(at: server))
            for try await _ in client.stream([ChatTurn(role: "user", content: "plan")], options: ModelRequestOptions(json: true)) {}
            for try await _ in client.stream([ChatTurn(role: "user", content: "write")]) {}
            let requests = server.requests
            try #require(requests.count == 2)
            for marker in ["response_format", "\"format\"", "responseMimeType"] {
                #expect(!requests[1].body.contains(marker), "a plain request must not ask for JSON")
            }
            if let marker = Self.jsonMarkers[testCase.kind] {
                #expect(requests[0].body.contains(marker))
            } else {
                // Anthropic has no JSON switch: the body stays a plain Messages request.
                #expect(!requests[0].body.contains("response_format"))
            }
        }
    }

    @Test("max tokens and temperature are sent when set")
    func samplingSettings() async throws {
        let openAI = ProviderReplayCase.all[0]
        try await openAI.withReplayServer { server in
            let client = ModelClient(provider: openAI.provider(at: server))
            let options = ModelRequestOptions(maxTokens: 300, temperature: 0.2)
            for try await _ in client.stream([ChatTurn(role: "user", content: "Hi")], options: options) {}
            let body = try #require(server.requests.first?.body)
            #expect(body.contains(#""max_tokens":300"#))
            #expect(body.contains(#""temperature":0.2"#))
        }
    }
}
