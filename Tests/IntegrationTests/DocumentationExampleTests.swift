import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTesting
import Testing

/// The worked examples of the CadenceTesting and CadenceServer documentation catalogs, run as
/// written, so the catalogs stay true.
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
