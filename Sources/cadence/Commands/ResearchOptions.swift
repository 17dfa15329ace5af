import ArgumentParser
import CadenceClient
import CadenceEngine
import CadenceResearch
import CadenceSearch
import CadenceServer
import CadenceStore
import CadenceWeb
import Foundation

/// What a research server answers from and how: the corpus, and (with a model) the research loop's
/// limits. Shared by `serve`, `demo`, and `ask`/`chat --research`.
struct ResearchOptions: ParsableArguments {
    @Option(name: .long, help: "A folder of markdown and text files to answer from, instead of the built-in corpus.")
    var corpus: String?

    @Option(name: .long, help: "With --corpus: the SQLite full-text index file kept for that folder (default: a file per folder in Cadence's data folder, beside the history).")
    var index: String?

    @Option(name: .long, help: "With a model: the most search rounds (the model may stop earlier).")
    var maxRounds: Int = 3

    @Option(name: .long, help: "With a model: how long a model call may stay silent before the answer ends with an error (60s, 5m).", transform: DurationArgument.parse)
    var modelIdleTimeout: DurationArgument = "60s"

    @Option(name: .long, help: "The longest one answer may take (10m, 90s), with any engine; past it the answer ends with a budget_exceeded error, its text kept.")
    var maxAnswerTime: DurationArgument = "10m"

    @Option(name: .long, help: "With a model: the most model tokens (input plus output, over all of an answer's calls) one answer may use; past it the answer ends with a budget_exceeded error, its text kept.")
    var maxAnswerTokens: Int = 200_000

    @Option(name: .long, help: "A HOST:PORT research may fetch pages from although its address is loopback, private or otherwise local (a self-hosted service); repeatable. All other such addresses are refused.")
    var fetchAllow: [String] = []

    @Option(name: .customLong("search"), help: "Where to search, repeatable: corpus (the default), searxng=URL, brave (BRAVE_API_KEY), tavily (TAVILY_API_KEY), pubmed (NCBI_API_KEY optional) or arxiv; NAME=URL replaces the source's public endpoint. Without a model the offline engine quotes what they find.")
    var search: [String] = []

    @Option(name: .long, help: "The most time one answer's searches may take, all rounds together (30s, 1m).", transform: DurationArgument.parse)
    var searchBudget: DurationArgument = "30s"

    @Option(name: .customLong("cache-ttl"), help: "With --search: how long search responses and read pages are kept (in cache.sqlite in Cadence's data folder, beside the history) and served again instead of fetched; 0 turns the cache off.", transform: DurationArgument.parse)
    var cacheTTL: DurationArgument = "1h"

    func validate() throws {
        for entry in fetchAllow where FetchAllowance(entry) == nil {
            throw ValidationError("--fetch-allow takes HOST:PORT (127.0.0.1:8888, [::1]:8888, intranet.local:80), not \(entry)")
        }
        _ = try searchChoices()
        if !searchBudget.isPositive { throw ValidationError("--search-budget must be longer than zero") }
        if !modelIdleTimeout.isPositive { throw ValidationError("--model-idle-timeout must be longer than zero") }
        if !maxAnswerTime.isPositive { throw ValidationError("--max-answer-time must be longer than zero") }
        if maxAnswerTokens < 1 { throw ValidationError("--max-answer-tokens must be at least 1") }
        if maxRounds < 1 { throw ValidationError("--max-rounds must be at least 1") }
    }

    /// The documents to search: `--corpus DIR` through its index file (`--index`, or the default
    /// one for that folder), or the built-in corpus.
    func loadCorpus() throws -> Corpus {
        guard let corpus else { return try Corpus.bundled() }
        let folder = URL(fileURLWithPath: corpus)
        return try Corpus(directory: folder, indexPath: index ?? Self.defaultIndexPath(for: folder))
    }

    /// `corpus-<folder name>-<hash of its path>.sqlite` in the folder that holds the history, so
    /// that each corpus folder keeps its own index.
    static func defaultIndexPath(for folder: URL) -> String {
        let path = folder.standardizedFileURL.path
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let name = folder.standardizedFileURL.lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        let file = "corpus-\(name.prefix(40))-\(String(hash, radix: 16)).sqlite"
        return URL(fileURLWithPath: SQLiteConversationStore.defaultPath()).deletingLastPathComponent()
            .appendingPathComponent(file).path
    }

    /// The `--search` sources, checked: known names, a base URL where one is needed, the API keys
    /// in the environment; `corpus` alone when none is given.
    func searchChoices(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> [SearchSourceChoice]
    {
        do {
            var choices: [SearchSourceChoice] = []
            for text in search {
                let choice = try SearchSourceChoice(parsing: text)
                try choice.validate(environment: environment)
                if !choices.contains(where: { $0.name == choice.name }) { choices.append(choice) }
            }
            return choices.isEmpty ? [try SearchSourceChoice(parsing: "corpus")] : choices
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The engine: model-driven research when a provider is given, else the offline corpus engine.
    func engine(
        corpus: Corpus, model: ModelOptions, corpusTokenDelay: Duration = .milliseconds(12),
        corpusStageDelay: Duration = .milliseconds(150)
    ) throws -> any AnswerEngine {
        let choices = try searchChoices()
        let cache = choices.contains(where: { $0.name != "corpus" }) ? try responseCache() : nil
        let kit = SearchKit(clock: ContinuousClock(), cache: cache)
        let environment = ProcessInfo.processInfo.environment
        let sources = try choices.map { choice in
            do { return try choice.makeSource(corpus: corpus, environment: environment, kit: kit) }
            catch { throw ValidationError("\(error)") }
        }
        guard let provider = model.modelProvider() else {
            // The corpus alone is searched collection by collection; other sources through the fanout.
            let fanout = choices.map(\.name) == ["corpus"] ? nil : SearchFanout(sources: sources, clock: ContinuousClock())
            return CorpusEngine(
                corpus: corpus, sources: fanout, searchBudget: searchBudget.duration, tokenDelay: corpusTokenDelay,
                stageDelay: corpusStageDelay)
        }
        var configuration = ResearchConfiguration()
        configuration.maxRounds = maxRounds
        configuration.modelIdleTimeout = modelIdleTimeout.duration
        configuration.maxAnswerTokens = maxAnswerTokens
        configuration.maxAnswerTime = maxAnswerTime.duration
        configuration.searchBudget = searchBudget.duration
        let pages = PageReader(fetcher: PageFetcher(policy: fetchPolicy()), cache: cache, clock: ContinuousClock())
        return ModelResearchEngine(
            corpus: corpus, client: ModelClient(provider: provider), configuration: configuration, sources: sources,
            pages: pages)
    }

    /// The cache of search responses and read pages (`--cache-ttl`), or `nil` when it is 0.
    func responseCache(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ResponseCache? {
        guard cacheTTL.isPositive else { return nil }
        let path = URL(fileURLWithPath: SQLiteConversationStore.defaultPath(environment: environment))
            .deletingLastPathComponent().appendingPathComponent("cache.sqlite").path
        do {
            return try ResponseCache(path: path, timeToLive: cacheTTL.duration)
        } catch {
            throw ValidationError("cannot open the response cache \(path): \(error); --cache-ttl 0 runs without it")
        }
    }

    /// The limits research fetches pages with: the defaults, and the `--fetch-allow` exceptions.
    func fetchPolicy() -> FetchPolicy {
        FetchPolicy(allowing: fetchAllow.compactMap(FetchAllowance.init))
    }

    /// `configuration` with these options' answer time budget, which the server holds every engine to.
    func serverConfiguration(_ configuration: ServerConfiguration = ServerConfiguration()) -> ServerConfiguration {
        var configuration = configuration
        configuration.maxAnswerTime = maxAnswerTime.duration
        return configuration
    }

    /// A one-line description of the engine, for banners and logs; never shows the API key.
    static func describe(_ engine: any AnswerEngine, corpus: Corpus) -> String {
        let documents = "\(corpus.documents.count) documents"
        if let offline = engine as? CorpusEngine, let sources = offline.sources {
            return "corpus engine · searching \(sources.sourceNames.joined(separator: ", "))"
        }
        guard let research = engine as? ModelResearchEngine else { return "corpus engine · \(documents)" }
        let provider = research.client.provider
        let searched = research.fanout.names.joined(separator: ", ")
        return "research with \(provider.model) (\(provider.kind.rawValue) at \(provider.baseURL)) · searching \(searched) · \(documents)"
    }
}
