public import CadenceClient
public import CadenceCore
public import CadenceEngine
public import CadenceSearch

/// An `AnswerEngine` that researches with a real model over its search sources (by default the
/// `Corpus` alone): the model plans the searches, reflects on what they found, and writes the
/// answer, whose citations are checked against the passages they cite while they stream.
///
/// It drives a ``ResearchMachine`` (the pure loop): it makes the model calls through
/// `ModelClient`, runs each round's queries on every source at once through a `SearchFanout`, reads
/// the best web results' pages through a ``PageReader`` (when given one), and
/// fires the model idle timeout, the retry waits and the search timeouts on the injected clock. Cancelling the consumer of ``answer(_:)`` closes the model request
/// at once.
///
/// ```swift
/// let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2"))
/// let engine = ModelResearchEngine(corpus: try Corpus.bundled(), client: client)
/// let server = ReferenceServer(engine: engine)
/// ```
public struct ModelResearchEngine: ModelDrivenEngine {
    public var corpus: Corpus
    public var client: ModelClient
    public var configuration: ResearchConfiguration
    /// Told how long each model call took to send its first token (a server's metrics).
    public var observer: (any AnswerEngineObserver)?
    /// Every round's queries run on every one of these sources.
    public let fanout: SearchFanout
    /// Reads the best web results' pages each round; `nil`: research keeps the search snippets.
    public let pages: PageReader?
    let makeTimer: @Sendable () -> DeadlineTimer
    let makeRandom: @Sendable () -> any RandomNumberGenerator & Sendable

    /// An engine searching `sources` (`nil`: the corpus alone) and reading web results' pages with
    /// `pages`, whose waits and timeouts run on `clock`.
    public init(
        corpus: Corpus, client: ModelClient, configuration: ResearchConfiguration = ResearchConfiguration(),
        sources: [any SearchSource]? = nil, pages: PageReader? = nil, clock: some Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> any RandomNumberGenerator & Sendable = { SystemRandomNumberGenerator() }
    ) {
        self.corpus = corpus
        self.client = client
        self.configuration = configuration
        self.fanout = SearchFanout(
            sources: sources ?? [CorpusSearchSource(corpus: corpus)], timeout: configuration.searchTimeout, clock: clock)
        self.pages = pages
        self.makeTimer = { DeadlineTimer(clock) }
        self.makeRandom = random
    }

    public func produce(_ request: AnswerRequest, emit: (ResearchEvent.Kind) -> Bool) async throws {
        var configuration = configuration
        if pages == nil { configuration.pagesPerRound = 0 }
        let machine = ResearchMachine(
            request: request, configuration: configuration, model: client.provider.model, searchSources: fanout.names,
            random: makeRandom())
        await ResearchDriver.run(machine, engine: self, timer: makeTimer(), emit: emit)
    }

}

/// What the loop does for a research answer's actions: ``ModelDriver``'s loop, whose tasks are
/// model calls, searches and page reads.
enum ResearchDriver {
    static func run(
        _ machine: ResearchMachine, engine: ModelResearchEngine, timer: DeadlineTimer,
        emit: (ResearchEvent.Kind) -> Bool
    ) async {
        await ModelDriver.run(machine, client: engine.client, timer: timer, observer: engine.observer, emit: emit) {
            action, machine in
            switch action {
            case .emit(let event):
                return .emit(event)
            case .finish:
                return .finish
            case .callModel(let call):
                return .callModel(call.turns, ModelRequestOptions(json: call.wantsJSON))
            case .closeModelCall:
                return .closeModelCall
            case .search(let queries):
                let (fanout, limit, timeLeft) = (
                    engine.fanout, engine.configuration.passagesPerQuery, machine.searchTimeLeft
                )
                return .work { deliver in
                    Task {
                        let outcomes = await fanout.search(queries, limit: limit, timeLeft: timeLeft)
                        if !Task.isCancelled { deliver(.searched(outcomes)) }
                    }
                }
            case .readPages(let urls, let queries):
                // The machine asks only when the engine has a reader (else its pagesPerRound is 0).
                let (reader, timeLeft) = (engine.pages, machine.searchTimeLeft)
                return .work { deliver in
                    Task {
                        let readings =
                            await reader?.read(urls, for: queries, within: timeLeft)
                            ?? urls.map { PageReading(url: $0, failure: "this engine reads no pages") }
                        if !Task.isCancelled { deliver(.pagesRead(readings)) }
                    }
                }
            }
        }
    }
}

extension ResearchMachine: ModelCallingMachine {}
extension ResearchMachine.Call: ModelCallProgress {}
