import ArgumentParser
import CadenceClient
import CadenceCore
import CadenceServer
import CadenceUI
import Foundation

/// Where answers come from: a Cadence research server (`--url`) or a model provider (`--provider`).
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: "A Cadence research server's base URL, for example http://127.0.0.1:8080.")
    var url: String?

    @OptionGroup var model: ModelOptions

    @Flag(name: .long, help: "Research over the corpus or the --search sources: with --provider the model plans, searches, reflects and writes with checked citations; without one the offline engine quotes what the searches find.")
    var research = false

    @OptionGroup var researchOptions: ResearchOptions

    @Option(name: .long, help: "A system prompt, with --provider.")
    var system: String?

    @OptionGroup var format: OutputOptions

    @OptionGroup var reliability: ReliabilityOptions

    func validate() throws {
        try model.validate(url: url)
        if system != nil, research { throw ValidationError("--system is for chatting with a model directly, not with --research") }
        if researchOptions.corpus != nil, !research { throw ValidationError("--corpus goes with --research") }
        if !researchOptions.search.isEmpty, !research { throw ValidationError("--search goes with --research") }
        if research, url != nil { throw ValidationError("--research starts its own research server; leave out --url") }
        if !researchOptions.fetchAllow.isEmpty, !research { throw ValidationError("--fetch-allow goes with --research") }
        if reliability.token != nil, url == nil { throw ValidationError("--token goes with --url (a Cadence server)") }
        try model.validateAPIKey()
    }

    /// Checks that a source was given; commands that can run without one (`chat --list`) call this from
    /// their own `validate()`, so that a usage error shows that command's usage.
    func validateSource() throws {
        if url == nil, model.provider == nil, !research {
            throw ValidationError(
                "say where to ask: --url URL (a Cadence server), --provider NAME --model M, or --research (the offline engine)")
        }
    }

    /// The model provider for a direct model chat: `nil` with `--url` or `--research`.
    func modelProvider() -> ModelProvider? {
        research ? nil : model.modelProvider(system: system)
    }

    /// These options with answers coming from the research server at `url` (for `--research`,
    /// once its embedded server runs).
    func asking(serverAt url: String) -> SourceOptions {
        var options = self
        options.url = url
        options.research = false
        options.model.provider = nil  // answers now come from the server, not from the model directly
        options.reliability.firstTokenTimeout =
            reliability.firstTokenTimeout ?? ReliabilityOptions.modelResearchFirstTokenTimeout
        return options
    }

    /// Runs `body` with the options it should use: with `--research`, an embedded research server is
    /// started with the model first, and stopped after.
    func withResearchServer<T>(_ body: (SourceOptions) async throws -> T) async throws -> T {
        guard research else { return try await body(self) }
        let corpus = try researchOptions.loadCorpus()
        let running = try await ReferenceServer(
            engine: try researchOptions.engine(corpus: corpus, model: model), configuration: researchOptions.serverConfiguration()
        ).start()
        return try await withReleasing(running, release: { await $0.shutdown() }) { running in
            try await body(asking(serverAt: running.baseURL))
        }
    }

    /// Asks the question (the last turn) with the earlier turns as context, printing the answer as it
    /// streams; Ctrl-C cancels it. Returns what was printed and how the answer ended.
    func answer(_ turns: [ChatTurn], output: TerminalOutput, recording: AnswerRecording? = nil) async throws
        -> PrintedAnswer
    {
        if let provider = modelProvider() {
            // On a terminal the model's reasoning is shown dimmed before the answer; the text is
            // written as the model sent it.
            let reasoning = output.styled ? ReasoningText(output: output) : nil
            let answer = ModelClient(provider: provider).answer(turns, reasoning: reasoning?.write)
            return try await AnswerSession.run(answer, output: output, recording: recording, json: format.json) {
                AnswerPrinter(output: output, showsStages: false, wrapsText: false, reasoning: reasoning)
            }
        }
        let request = AnswerRequest(query: turns.last?.content ?? "", history: Array(turns.dropLast()))
        let answer = AnswerStream(
            request: request, transport: reliability.makeTransport(baseURL: url ?? ""),
            configuration: reliability.configuration, group: Interrupt.answerStreams)
        return try await AnswerSession.run(answer, output: output, recording: recording, json: format.json) {
            [plain = format.plain] in
            AnswerPrinter(output: output, showsStages: !plain, answerTextOnly: plain)
        }
    }

    /// Where the full-screen UI's answers come from: the research server through the reliability
    /// engine, or the model provider with the conversation as turns.
    func answerSource() -> ChatViewModel.AnswerSource {
        if let provider = modelProvider() {
            let client = ModelClient(provider: provider)
            return ChatViewModel.source { client.answer($0.history + [ChatTurn(role: "user", content: $0.query)]) }
        }
        let transport = reliability.makeTransport(baseURL: url ?? "")
        let configuration = reliability.configuration
        return ChatViewModel.source {
            AnswerStream(request: $0, transport: transport, configuration: configuration, group: Interrupt.answerStreams)
        }
    }
}
