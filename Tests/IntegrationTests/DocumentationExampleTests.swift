import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
import Testing

/// The worked examples of the CadenceTesting, CadenceServer and CadenceClient documentation catalogs,
/// run as written, so the catalogs stay true.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    /// "Testing a dropped connection" (CadenceTesting).
    @Test(arguments: [1, 97, 260, 411])
    func dropAndResume(atByte: Int) async throws {
        let script = FaultScript.answer(text: "Naïve clients lose text — 日本語 🧑‍🚀. Cadence resumes.")
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(.closeAfter(bytes: atByte), .status(503, headers: ["retry-after-ms": "1"]))

        var configuration = ReliabilityConfiguration()
        configuration.backoffBase = .milliseconds(1)
        var updates: [AnswerUpdate] = []
        for await update in AnswerStream(
            request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
            configuration: configuration)
        {
            updates.append(update)
        }

        #expect(updates.text == script.text)
        #expect(updates.filter(\.isTerminal).count == 1)
        #expect(server.requests.map(\.method) == ["POST", "GET", "GET"])
    }

    /// "Asking a research server" (CadenceClient), first example: the switch over every update, on a
    /// connection that drops once. Only the server and a short backoff are the test's.
    @Test func askingAResearchServer() async throws {
        let script = FaultScript.answer(text: "Resume picks up after the last event; nothing is shown twice.")
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(.closeAfter(bytes: 300), .status(503, headers: ["retry-after-ms": "1"]))

        let transport = SSETransport(baseURL: server.baseURL)  // or WebSocketTransport, PollingTransport
        var configuration = ReliabilityConfiguration()
        configuration.firstTokenTimeout = .seconds(30)  // research can take a while
        configuration.backoffBase = .milliseconds(1)

        let answer = AnswerStream(
            request: AnswerRequest(query: "How does resume work?"), transport: transport,
            configuration: configuration)
        var text = ""
        var printed: [String] = []
        for await update in answer {
            switch update {
            case .stageChanged(let stage): printed.append("· " + (stage.stageDescription ?? ""))
            case .textAppended(let piece): text += piece
            case .reconnecting(let attempt, let delay): printed.append("reconnecting (attempt \(attempt)) in \(delay)")
            case .reconnected: printed.append("reconnected")
            case .completed(let completion): printed.append("\(completion.text == text) \(completion.sources.count)")
            case .failed(let failure): printed.append("failed: \(failure.message) kept: \(failure.partialText)")
            case .cancelled: break
            case .sourcesMerged, .reasoningAppended, .refusalAppended, .toolCallReceived: break
            }
        }

        #expect(text == script.text)
        // The second connection is attempt 2, as step 2 of the article says (it said 1).
        #expect(printed.contains { $0.hasPrefix("reconnecting (attempt 2)") }, "\(printed)")
        #expect(printed.contains("reconnected"), "\(printed)")
        #expect(printed.last == "true 1", "\(printed)")  // FaultScript.answer has one source
    }

    /// "Asking a research server" (CadenceClient), second example: a model's answer cut at its token
    /// limit reads as text, then a completion whose finish reason says so. The provider is a scripted
    /// OpenAI-compatible server instead of a local Ollama.
    @Test func askingAModel() async throws {
        let server = try await ScriptedModelServer.start { _, _ in
            .text(["The sky ", "scatters blue"], finishReason: "length")
        }
        defer { Task { await server.shutdown() } }
        let model = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: server.baseURL, model: "llama3.2"))
        var shown = ""
        var cut = false
        for await update in model.answer([ChatTurn(role: "user", content: "Why is the sky blue?")]) {
            if case .textAppended(let piece) = update { shown += piece }
            if case .completed(let completion) = update, completion.finishReason == .length { cut = true }
        }
        #expect(shown == "The sky scatters blue")
        #expect(cut)
    }

    /// "Serving answers" (CadenceServer).
    @Test func servingAnswers() async throws {
        let server = ReferenceServer(
            engine: CorpusEngine(corpus: try Corpus.bundled()),
            configuration: ServerConfiguration(port: 0, maxAnswers: 64))
        let running = try await server.start()
        #expect(running.baseURL.hasPrefix("http://127.0.0.1:"))
        let answer = AnswerStream(
            request: AnswerRequest(query: "How does Cadence resume an interrupted stream?"),
            transport: SSETransport(baseURL: running.baseURL))
        var completion: AnswerCompletion?
        for await update in answer {
            if case .completed(let completed) = update { completion = completed }
        }
        await running.shutdown()
        let completed = try #require(completion)
        #expect(!completed.text.isEmpty && !completed.sources.isEmpty)
    }
}
