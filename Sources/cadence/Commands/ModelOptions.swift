import ArgumentParser
import CadenceClient
import Foundation

/// Which model to use: shared by `ask`, `chat`, `demo` and `serve`.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "A model provider: openai (and any OpenAI-compatible server), openai-responses, anthropic, gemini, ollama.")
    var provider: String?

    @Option(name: .long, help: "The provider's base URL (default: its public API; for Ollama's OpenAI API use http://127.0.0.1:11434/v1).")
    var baseURL: String?

    @Option(name: .long, help: "The model to use, with --provider.")
    var model: String?

    @Option(name: .long, help: "The API key (default: $OPENAI_API_KEY, $ANTHROPIC_API_KEY or $GEMINI_API_KEY). Never printed.")
    var apiKey: String?

    func validate() throws {
        if let name = provider, ModelProvider.Kind(rawValue: name) == nil {
            let names = ModelProvider.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("unknown provider '\(name)'; use one of \(names)")
        }
        if provider != nil, model == nil { throw ValidationError("--provider needs --model") }
        if provider == nil {
            for (flag, value) in [("--model", model), ("--base-url", baseURL), ("--api-key", apiKey)] where value != nil {
                throw ValidationError("\(flag) goes with --provider NAME")
            }
        }
    }

    /// Checks a command's `--url` (a Cadence server): a usable http(s) URL, and not given with
    /// `--provider`, since answers come from one or the other.
    func validate(url: String?) throws {
        if url != nil, provider != nil { throw ValidationError("give either --url or --provider, not both") }
        try CommandInput.validateServerURL(url)
    }

    /// Checks that a hosted provider's public API gets a key: without one it would answer 401 after a
    /// round trip (or, offline, fail to resolve its host), where the command can say at once what to
    /// pass. A `--base-url` (a local or self-hosted server) may need no key, so it is not checked.
    func validateAPIKey() throws {
        guard let kind = provider.flatMap(ModelProvider.Kind.init(rawValue:)), baseURL == nil,
            let variable = kind.apiKeyVariable, resolvedAPIKey(kind) == nil
        else { return }
        let local = kind == .openAI ? " (a local OpenAI-compatible server needs none: give its --base-url)" : ""
        throw ValidationError(
            "\(kind.rawValue) at \(kind.defaultBaseURL) needs an API key: pass --api-key KEY or set "
                + variable + local)
    }

    /// The model provider described by the options, with its API key from the flag or the environment.
    func modelProvider(system: String? = nil) -> ModelProvider? {
        guard let provider = provider.flatMap(ModelProvider.Kind.init(rawValue:)), let model else { return nil }
        return ModelProvider(
            kind: provider, baseURL: baseURL, model: model, apiKey: resolvedAPIKey(provider), system: system)
    }

    /// The key from `--api-key`, else from the provider's environment variable; an empty one is none.
    private func resolvedAPIKey(_ kind: ModelProvider.Kind) -> String? {
        let key = apiKey ?? kind.apiKeyVariable.flatMap { ProcessInfo.processInfo.environment[$0] }
        return key?.isEmpty == false ? key : nil
    }
}
