import ArgumentParser
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer

/// `cadence demo`: an embedded research server with the built-in corpus, and one cited answer.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start an embedded research server and stream a cited answer (no configuration needed)."
    )

    static let sampleQuestion = "How does Cadence resume an interrupted stream without losing text?"

    @Option(name: .long, help: "The question to ask.")
    var question: String = DemoCommand.sampleQuestion

    @Flag(name: .long, help: "Plain output: the answer text, then the numbered sources.")
    var plain = false

    @Option(name: .long, help: ArgumentHelp("Milliseconds the engine waits between tokens.", visibility: .hidden))
    var engineDelayMs: Int = 12

    func run() async throws {
        let output = TerminalOutput(plain: plain)
        let corpus = try Corpus.bundled()
        let server = ReferenceServer(
            engine: CorpusEngine(
                corpus: corpus, tokenDelay: .milliseconds(engineDelayMs), stageDelay: .milliseconds(engineDelayMs * 12)))
        let running = try await server.start()
        if !plain {
            output.line(output.dim("Cadence demo · research server on \(running.baseURL) · \(corpus.documents.count) documents"))
            output.line()
            output.line(output.bold("? \(question)"))
            output.line()
        }
        do {
            try await AnswerSession.run(
                transport: SSETransport(baseURL: running.baseURL), request: AnswerRequest(query: question),
                configuration: ReliabilityConfiguration(), output: output, showsStages: !plain)
        } catch {
            await running.shutdown()
            throw error
        }
        await running.shutdown()
    }
}
