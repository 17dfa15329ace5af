import ArgumentParser
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceUI
import Foundation

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
            In a pipe it streams text without escape codes (stages, answer, sources, follow-ups); \
            --plain prints only the answer and its sources; --json prints JSON lines.
            With --provider P --model M the embedded server researches with your model instead of the \
            offline corpus engine (for example --provider ollama --model llama3.2).
            With --url the demo asks a running Cadence server (or a load balancer in front of several) \
            instead, sending --token (or $CADENCE_TOKEN) when the server needs one.

            With --plain or --json: \(PrintedAnswer.exitStatusHelp)
            """
    )

    static let sampleQuestion = "How does Cadence resume an interrupted stream without losing text?"

    @Option(name: .long, help: "The question to ask.")
    var question: String = DemoCommand.sampleQuestion

    @Option(name: .long, help: "How text appears in the full-screen UI: adaptive, char, word or instant.")
    var pace: PaceCommand.PaceMode = .adaptive

    @OptionGroup var format: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Milliseconds the engine waits between tokens.", visibility: .hidden))
    var engineDelayMs: Int = 12

    @Option(name: .long, help: "Ask a running Cadence server at this base URL instead of an embedded one.")
    var url: String?

    @Option(name: .long, help: "With --url: the server's access token (default: $CADENCE_TOKEN).")
    var token: String?

    @OptionGroup var model: ModelOptions
    @OptionGroup var research: ResearchOptions

    func validate() throws {
        try CommandInput.validateQuestion(question, option: "--question")
        try model.validate(url: url)
        if token != nil, url == nil { throw ValidationError("--token goes with --url (the embedded server needs none)") }
        try AccessToken.validate(token)
        try model.validateAPIKey()
        try DurationArgument.validateMilliseconds(engineDelayMs, option: "--engine-delay-ms")
    }

    func run() async throws {
        let output = format.terminal
        if let url {
            try await show(
                transport: SSETransport(baseURL: url, bearerToken: AccessToken.resolve(token)), serverDescription: "research server at \(url)",
                output: output)
            return
        }
        let corpus = try research.loadCorpus()
        let engine = try research.engine(
            corpus: corpus, model: model, corpusTokenDelay: .milliseconds(engineDelayMs),
            corpusStageDelay: .milliseconds(engineDelayMs * 12))
        let running = try await ReferenceServer(engine: engine, configuration: research.serverConfiguration()).start()
        try await withReleasing(running, release: { await $0.shutdown() }) { running in
            try await show(
                transport: SSETransport(baseURL: running.baseURL),
                serverDescription: "research server on \(running.baseURL) · \(ResearchOptions.describe(engine, corpus: corpus))",
                output: output)
        }
    }

    private func show(transport: SSETransport, serverDescription: String, output: TerminalOutput) async throws {
        var configuration = ReliabilityConfiguration()
        if model.provider != nil {
            configuration.firstTokenTimeout = ReliabilityOptions.modelResearchFirstTokenTimeout.duration
        }
        if format.allowsFullScreen {
            let chat = await ChatViewModel(
                clock: ContinuousClock(), pacing: pace.pacerMode,
                open: ChatViewModel.source { [configuration] in
                    AnswerStream(
                        request: $0, transport: transport, configuration: configuration, group: Interrupt.answerStreams)
                })
            try await FullScreen.run(chat: chat, initialQuestion: question, history: [])
            return
        }
        if output.styled {
            output.line(output.dim("Cadence demo · \(serverDescription)"))
            output.line()
            output.line(output.bold("? \(question)"))
            output.line()
        }
        let answer = AnswerStream(
            request: AnswerRequest(query: question), transport: transport, configuration: configuration,
            group: Interrupt.answerStreams)
        try await AnswerSession.run(answer, output: output, json: format.json) { [plain = format.plain] in
            AnswerPrinter(output: output, showsStages: !plain, answerTextOnly: plain)
        }.conclude()
    }
}
