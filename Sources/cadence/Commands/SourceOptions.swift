import ArgumentParser
import CadenceClient
import CadenceCore
import CadenceUI
import Foundation

/// Where answers come from: a Cadence research server (`--url`) or a model provider (`--provider`).
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: "A Cadence research server's base URL, for example http://127.0.0.1:8080.")
    var url: String?

    @Option(name: .long, help: "A model provider: openai (and any OpenAI-compatible server), anthropic, gemini, ollama.")
    var provider: String?

    @Option(name: .long, help: "The provider's base URL (default: its public API; for Ollama's OpenAI API use http://127.0.0.1:11434/v1).")
    var baseURL: String?

    @Option(name: .long, help: "The model to ask, with --provider.")
    var model: String?

    @Option(name: .long, help: "The API key (default: $OPENAI_API_KEY, $ANTHROPIC_API_KEY or $GEMINI_API_KEY). Never printed.")
    var apiKey: String?

    @Option(name: .long, help: "A system prompt, with --provider.")
    var system: String?

    @Flag(name: .long, help: "Plain output: the answer text, then the numbered sources (also when stdout is not a terminal).")
    var plain = false

    @Flag(name: .long, help: "Print each answer's updates as JSON lines (with chat --list: the list).")
    var json = false

    @OptionGroup var reliability: ReliabilityOptions

    func validate() throws {
        switch (url, provider) {
        case (.some, .some): throw ValidationError("give either --url or --provider, not both")
        case (nil, .some(let name)) where ModelProvider.Kind(rawValue: name) == nil:
            let names = ModelProvider.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("unknown provider '\(name)'; use one of \(names)")
        case (nil, .some) where model == nil: throw ValidationError("--provider needs --model")
        default: break
        }
    }

    /// Checks that a source was given; commands that can run without one (`chat --list`) call this themselves.
    func validateSource() throws {
        if url == nil, provider == nil {
            throw ValidationError("say where to ask: --url URL (a Cadence server) or --provider NAME --model M")
        }
    }

    /// The model provider described by the options, with its API key from the flag or the environment.
    func modelProvider() -> ModelProvider? {
        guard let provider = provider.flatMap(ModelProvider.Kind.init(rawValue:)), let model else { return nil }
        let key = apiKey ?? provider.apiKeyVariable.flatMap { ProcessInfo.processInfo.environment[$0] }
        return ModelProvider(kind: provider, baseURL: baseURL, model: model, apiKey: key, system: system)
    }

    /// Asks the question (the last turn) with the earlier turns as context, printing the answer as it
    /// streams. Returns the answer text, or throws `ExitCode.failure` after a one-line reason on stderr.
    func answer(_ turns: [ChatTurn], output: TerminalOutput, recording: AnswerRecording? = nil) async throws -> String {
        if let provider = modelProvider() {
            let client = ModelClient(provider: provider)
            if json {
                return try await AnswerSession.printJSON(
                    ModelAnswerSession.updates(client: client, turns: turns), output: output, recording: recording)
            }
            return try await ModelAnswerSession.run(client: client, turns: turns, output: output, recording: recording)
        }
        let question = turns.last?.content ?? ""
        return try await AnswerSession.run(
            transport: reliability.makeTransport(baseURL: url ?? ""),
            request: AnswerRequest(query: question, history: Array(turns.dropLast())),
            configuration: reliability.configuration, output: output, showsStages: !plain, recording: recording, json: json)
    }

    /// Where the full-screen UI's answers come from: the research server through the reliability
    /// engine, or the model provider with the conversation as turns.
    func answerSource() -> ChatViewModel.AnswerSource {
        if let provider = modelProvider() {
            let client = ModelClient(provider: provider)
            return { request in
                ModelAnswerSession.updates(
                    client: client, turns: request.history + [ChatTurn(role: "user", content: request.query)])
            }
        }
        let transport = reliability.makeTransport(baseURL: url ?? "")
        let configuration = reliability.configuration
        return ChatViewModel.source { AnswerStream(request: $0, transport: transport, configuration: configuration) }
    }
}
