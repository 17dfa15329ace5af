import ArgumentParser
import CadenceClient
import CadenceEngine
import CadenceResearch

/// Which engine `cadence serve` answers with, and the chat engine's own settings.
struct EngineOptions: ParsableArguments {
    /// The engines a server can answer with.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case corpus, research, chat
    }

    @Option(
        name: .long,
        help: "What answers: corpus (the offline engine; the default without --provider), research (a model researches the corpus; the default with --provider) or chat (the model's own answer, relayed).")
    var engine: Kind?

    @Option(name: .long, help: "With --engine chat: a system prompt sent to the model before the conversation.")
    var system: String?

    @Option(name: .long, help: "With --engine chat: the most tokens the model may write per answer, sent to the model.")
    var maxOutputTokens: Int?

    /// Checks the engine against the model options: research and chat need a model, corpus takes none,
    /// and the chat settings go with the chat engine.
    func validate(model: ModelOptions) throws {
        let kind = resolved(model)
        switch kind {
        case .chat where model.provider == nil:
            throw ValidationError(
                "--engine chat relays a model's answers: give --provider NAME --model MODEL (and --base-url URL for a local server)")
        case .research where model.provider == nil:
            throw ValidationError("--engine research needs a model: give --provider NAME --model MODEL")
        case .corpus where model.provider != nil:
            throw ValidationError("--engine corpus answers without a model: leave out --provider, or use --engine research or chat")
        default:
            break
        }
        if kind != .chat {
            for (flag, given) in [("--system", system != nil), ("--max-output-tokens", maxOutputTokens != nil)] where given {
                throw ValidationError("\(flag) goes with --engine chat")
            }
        }
        if let maxOutputTokens, maxOutputTokens < 1 { throw ValidationError("--max-output-tokens must be at least 1") }
    }

    /// The engine named, or the default: research with a provider, the corpus engine without.
    func resolved(_ model: ModelOptions) -> Kind {
        engine ?? (model.provider == nil ? .corpus : .research)
    }

    /// The engine to serve: the chat engine when asked for, else what ``ResearchOptions`` builds.
    func engine(corpus: Corpus, model: ModelOptions, research: ResearchOptions) throws -> any AnswerEngine {
        guard resolved(model) == .chat, let provider = model.modelProvider(system: system) else {
            return try research.engine(corpus: corpus, model: model)
        }
        let configuration = ChatConfiguration(
            maxOutputTokens: maxOutputTokens, modelIdleTimeout: research.modelIdleTimeout.duration,
            maxAnswerTime: research.maxAnswerTime.duration, maxAnswerTokens: research.maxAnswerTokens)
        return ChatEngine(client: ModelClient(provider: provider), configuration: configuration)
    }

    /// A one-line description of the engine for the startup banner; never shows the API key.
    static func describe(_ engine: any AnswerEngine, corpus: Corpus) -> String {
        guard let chat = engine as? ChatEngine else { return ResearchOptions.describe(engine, corpus: corpus) }
        let provider = chat.client.provider
        return "chat engine · \(provider.model) (\(provider.kind.rawValue) at \(provider.baseURL))"
    }
}
