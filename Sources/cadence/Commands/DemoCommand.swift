import ArgumentParser
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceUI

/// `cadence demo`: an embedded research server with the built-in corpus, and one cited answer,
/// full-screen in a terminal.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start an embedded research server and stream a cited answer (no configuration needed).",
        discussion: """
            In a terminal the answer opens full-screen: research stages, text revealed at a steady pace, \
            live markdown, numbered sources and follow-ups. Ask more below; PgUp/PgDn or the mouse wheel \
            scroll, End follows again, Ctrl-C cancels an answer, Ctrl-C again (or Ctrl-D) quits.
            In a pipe, or with --plain, it prints plain streaming text; --json prints JSON lines.
            """
    )

    static let sampleQuestion = "How does Cadence resume an interrupted stream without losing text?"

    @Option(name: .long, help: "The question to ask.")
    var question: String = DemoCommand.sampleQuestion

    @Option(name: .long, help: "How text appears: adaptive, char, word or instant.")
    var pace: PaceCommand.PaceMode = .adaptive

    @Flag(name: .long, help: "Plain output: the answer text, then the numbered sources.")
    var plain = false

    @Flag(name: .long, help: "Print the answer's updates as JSON lines.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Milliseconds the engine waits between tokens.", visibility: .hidden))
    var engineDelayMs: Int = 12

    func validate() throws {
        if plain, json { throw ValidationError("choose --plain or --json, not both") }
    }

    func run() async throws {
        let output = TerminalOutput(plain: plain || json)
        let corpus = try Corpus.bundled()
        let server = ReferenceServer(
            engine: CorpusEngine(
                corpus: corpus, tokenDelay: .milliseconds(engineDelayMs), stageDelay: .milliseconds(engineDelayMs * 12)))
        let running = try await server.start()
        do {
            try await show(server: running, corpusSize: corpus.documents.count, output: output)
        } catch {
            await running.shutdown()
            throw error
        }
        await running.shutdown()
    }

    private func show(server: RunningServer, corpusSize: Int, output: TerminalOutput) async throws {
        let transport = SSETransport(baseURL: server.baseURL)
        if FullScreen.isAvailable(plain: plain || json) {
            let chat = await ChatViewModel(
                clock: ContinuousClock(), pacing: pace.pacerMode,
                open: ChatViewModel.source { AnswerStream(request: $0, transport: transport) })
            try await FullScreen.run(chat: chat, initialQuestion: question, history: [])
            return
        }
        if json {
            _ = try await AnswerSession.printJSON(
                AnswerStream(request: AnswerRequest(query: question), transport: transport), output: output, recording: nil)
            return
        }
        if output.styled {
            output.line(output.dim("Cadence demo · research server on \(server.baseURL) · \(corpusSize) documents"))
            output.line()
            output.line(output.bold("? \(question)"))
            output.line()
        }
        try await AnswerSession.run(
            transport: transport, request: AnswerRequest(query: question), configuration: ReliabilityConfiguration(),
            output: output, showsStages: !plain)
    }
}
