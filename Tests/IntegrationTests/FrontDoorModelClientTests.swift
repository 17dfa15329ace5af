import CadenceClient
import CadenceCore
import CadenceResearch
import CadenceServer
import CadenceTesting
import Testing

/// Cadence's own model client, pointed at Cadence's OpenAI-compatible front door, with the chat
/// engine relaying a model behind it: `--provider openai --base-url http://HOST:PORT/v1` works
/// against a Cadence server as it does against OpenAI.
@Suite("ModelClient against the front door", .timeLimit(.minutes(1)))
struct FrontDoorModelClientTests {
    @Test("the model's text, finish reason and usage reach ModelClient through the chat engine and /v1/chat/completions")
    func modelClientReadsTheFrontDoor() async throws {
        let pieces = ["Grüße ", "aus ", "🎉 Köln", "\n\nZweiter Absatz."]
        let upstream = try await ScriptedModelServer.start { _, _ in
            .text(pieces, usage: ScriptedModelServer.Usage(input: 7, output: 11))
        }
        defer { Task { await upstream.shutdown() } }
        let provider = ModelProvider(kind: .openAI, baseURL: upstream.baseURL, model: "upstream-model")
        try await withServer(engine: ChatEngine(client: ModelClient(provider: provider))) { server in
            let client = ModelClient(
                provider: ModelProvider(kind: .openAI, baseURL: server.baseURL + "/v1", model: "any"))
            var text = ""
            var finish: FinishReason?
            var usage: ModelUsage?
            for try await event in client.stream([ChatTurn(role: "user", content: "Hallo?")]) {
                switch event {
                case .text(let piece, 0): text += piece
                case .finish(let reason, 0): finish = reason
                case .usage(let reported): usage = reported
                case .error(let error): Issue.record("error: \(error.message)")
                default: break
                }
            }
            #expect(text == pieces.joined())
            #expect(finish?.name == "stop")
            #expect(usage?.inputTokens == 7)
            #expect(usage?.outputTokens == 11)
            // The question reached the model behind the door.
            #expect(upstream.requests.first?.messages.last?.content == "Hallo?")
        }
    }
}
