import CadenceClient
import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Testing

/// The built `cadence serve --engine chat` relaying a scripted model's answers.
@Suite("cadence serve --engine chat")
struct ServeChatCommandTests {
    @Test func servesTheModelsAnswerToAPost() async throws {
        let model = try await ScriptedModelServer.start { _, _ in
            .text(["Hello", " from", " the model."], usage: .init(input: 12, output: 3))
        }
        let serve = try await ServeProcess.start([
            "--engine", "chat", "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted",
            "--system", "Answer briefly.", "--max-output-tokens", "55",
        ])
        let (_, received) = await openAndReceive(
            SSETransport(baseURL: serve.baseURL), AnswerRequest(query: "Say hello."))
        let banner = serve.stop()
        await model.shutdown()

        #expect(received.error == nil)
        #expect(received.text == "Hello from the model.")
        let metadata = try #require(received.completion?.metadata)
        #expect(metadata["engine"] == .string("chat"))
        #expect(metadata["model"] == .string("scripted"))
        #expect(metadata["finish_reason"] == .string("stop"))
        #expect(metadata["usage"]?["input_tokens"] == .number(12))
        #expect(banner.contains("chat engine · scripted (openai at \(model.baseURL))"), "\(banner)")

        let request = try #require(model.requests.first)
        #expect(request.messages.map(\.role) == ["system", "user"])
        #expect(request.messages.map(\.content) == ["Answer briefly.", "Say hello."])
        #expect(request.json?["max_tokens"] == .number(55))
    }

    @Test(arguments: [
        (["--engine", "chat"], "--engine chat relays a model's answers"),
        (["--engine", "research"], "--engine research needs a model"),
        (["--system", "Be brief."], "--system goes with --engine chat"),
        (
            ["--engine", "chat", "--provider", "openai", "--base-url", "http://127.0.0.1:9", "--model", "m", "--max-output-tokens", "0"],
            "--max-output-tokens must be at least 1"
        ),
    ])
    func refusesAnEngineItCannotRun(arguments: [String], message: String) async throws {
        let result = try await CadenceBinary.run(["serve", "--port", "0"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
