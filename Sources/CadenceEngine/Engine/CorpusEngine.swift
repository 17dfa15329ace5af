public import CadenceCore

/// An answer engine that searches a ``Corpus`` with BM25 and answers by quoting it, with citations.
///
/// It streams what it actually does: the research depth it chose, the queries it planned, a
/// search of every collection per round, an honest check of what the results cover (and a
/// second round with the missing and related terms when that could help), the sources it
/// selected, the answer word by word, and a completion with timings and counts. A question the
/// corpus says nothing about gets a plain "nothing found" answer and no sources.
///
/// Given `sources` (a ``SourceSearch``: the web, PubMed, arXiv), each round searches every source
/// at once instead of the collections, reports each by name (`search_failed` for one that fails,
/// while the answer goes on), and quotes what they found, with each source's venue and date.
///
/// Time is injected: stage and token pauses (which make the stream feel like the research it
/// reports) go through `clock`, and zero delays skip sleeping altogether.
///
/// ```swift
/// let engine = CorpusEngine(corpus: try Corpus.bundled(), tokenDelay: .zero, stageDelay: .zero)
/// for try await event in engine.answer(AnswerRequest(query: "How does Cadence resume an interrupted stream?")) {
///     print(event)
/// }
/// ```
public struct CorpusEngine: AnswerEngine {
    /// The name reported in the completion's metadata.
    public static let name = "corpus-bm25"

    /// The documents the engine searches.
    public let corpus: Corpus
    /// The pause after each answer token.
    public let tokenDelay: Duration
    /// The pause after each stage that starts work (planning, each search, reflection,
    /// source selection, synthesis).
    public let stageDelay: Duration
    /// The sources searched instead of ``corpus`` (which may be one of them): a web search,
    /// PubMed, arXiv. `nil` searches the corpus, collection by collection.
    public let sources: (any SourceSearch)?
    /// The most time one answer's searches may take, all rounds together, with ``sources``.
    public let searchBudget: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The time on the injected clock since the engine was made.
    let now: @Sendable () -> Duration

    /// An engine over `corpus`, or, given `sources`, over what they find within `searchBudget`.
    public init(
        corpus: Corpus, sources: (any SourceSearch)? = nil, searchBudget: Duration = .seconds(30),
        clock: some Clock<Duration> = ContinuousClock(), tokenDelay: Duration = .milliseconds(12), stageDelay: Duration = .milliseconds(150)
    ) {
        self.corpus = corpus
        self.sources = sources
        self.searchBudget = searchBudget
        self.tokenDelay = tokenDelay
        self.stageDelay = stageDelay
        self.sleep = { duration in try await clock.sleep(for: duration) }
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
    }

    public func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        .producing { [self] emit in
            let emitter = Emitter(emit: emit, sleep: sleep, stageDelay: stageDelay, tokenDelay: tokenDelay)
            do {
                try await run(request, emitter: emitter)
            } catch is CancellationError {
                // The consumer left: nobody reads an error now.
            }
        }
    }

    private func run(_ request: AnswerRequest, emitter: Emitter) async throws {
        let started = ContinuousClock.now
        var stopwatch = Stopwatch()

        let plan = stopwatch.measure("planning_ms") { ResearchPlan(request) }
        try await emitter.stage(.tierSelected(tier: plan.tier.rawValue, reason: plan.tierReason), pause: false)
        try await emitter.stage(.planningStarted(message: "Planning searches for “\(plan.question)”"))
        try await emitter.stage(
            .planningComplete(message: planSummary(plan), queries: plan.queries.map(\.text)), pause: false)

        var retrieval = Retrieval(corpus: corpus, words: plan.words)
        var found = FoundPassages()
        var asked: [[PlannedQuery]] = []
        var queries = plan.queries
        var round = 1
        var reflection: Retrieval.Reflection
        while true {
            try await emitter.stage(
                .roundStarted(
                    round: round,
                    message: round == 1
                        ? "Searching \(sources.map { Prose.list($0.sourceNames) } ?? "\(corpus.collections.count) collections")"
                        : "Searching again with expanded terms"), pause: false)
            if let sources {
                asked.append(queries)
                let started = now()
                try await search(sources, queries, found: &found, emitter: emitter)
                stopwatch.add("search_ms", now() - started)
                retrieval = try stopwatch.measure("search_ms") { () throws(CorpusError) -> Retrieval in
                    Self.rank(try found.corpus, asked: asked, words: plan.words)
                }
            }
            for collection in corpus.collections where sources == nil {
                try await emitter.stage(.searching(source: collection))
                let found = stopwatch.measure("search_ms") {
                    retrieval.search(queries, in: collection, weight: round == 1 ? 1 : 0.6)
                }
                try await emitter.stage(.searchComplete(count: found, source: collection), pause: false)
            }
            let documents = retrieval.documentCount
            try await emitter.stage(
                .roundComplete(
                    round: round, sources: documents,
                    status: retrieval.scores.isEmpty ? "no matches" : "\(retrieval.scores.count) passages"),
                pause: false)
            try await emitter.stage(.reflectionStarted(message: "Checking what the best passages cover"))
            reflection = stopwatch.measure("reflection_ms") { retrieval.reflect(on: plan, round: round) }
            try await emitter.stage(
                .reflectionComplete(message: reflection.message, sufficient: reflection.sufficient), pause: false)
            guard !reflection.nextQueries.isEmpty else { break }
            queries = reflection.nextQueries
            round += 1
        }

        try await emitter.stage(.sourceSelectionStarted(message: "Choosing sources and sentences to quote"))
        var answer = stopwatch.measure("synthesis_ms") {
            AnswerComposer(
                corpus: retrieval.corpus, plan: plan, ranked: retrieval.ranked, reflection: reflection,
                searched: sources?.sourceNames
            ).compose()
        }
        if let sources { answer = Self.sourced(answer, found: found, plan: plan, names: sources.sourceNames) }
        try await emitter.stage(.sourcesReady(answer.sources), pause: false)
        try await emitter.stage(.synthesisStarted(message: synthesisMessage(answer)))
        for token in SentenceSplitter.wordTokens(in: answer.text) {
            try await emitter.token(token)
        }

        var metadata = stopwatch.milliseconds
        metadata["engine"] = .string(Self.name)
        metadata["tier"] = .string(plan.tier.rawValue)
        metadata["rounds"] = .number(Double(round))
        metadata["documents"] = .number(Double(retrieval.corpus.documents.count))
        metadata["passages"] = .number(Double(retrieval.corpus.passageCount))
        metadata["collections"] = .number(Double(retrieval.corpus.collections.count))
        if let sources {
            metadata["search_sources"] = .array(sources.sourceNames.map(JSONValue.string))
            if !found.failures.isEmpty { metadata["search_failures"] = found.failureMetadata }
        }
        metadata["hits"] = .number(Double(retrieval.scores.count))
        metadata["sentences"] = .number(Double(answer.sentenceCount))
        metadata["total_ms"] = .number(AnswerBudget.milliseconds(started.duration(to: .now)))
        try await emitter.stage(
            .complete(Completion(sources: answer.sources, metadata: metadata, followUps: answer.followUps)),
            pause: false)
    }

    private func planSummary(_ plan: ResearchPlan) -> String {
        let count = plan.queries.count
        let over = sources.map { Prose.list($0.sourceNames) } ?? "\(corpus.documents.count) documents"
        var summary = "\(count) quer\(count == 1 ? "y" : "ies") over \(over)"
        if let context = plan.context { summary += ", with context from “\(context)”" }
        return summary
    }

    private func synthesisMessage(_ answer: ComposedAnswer) -> String {
        guard !answer.sources.isEmpty else { return "Nothing relevant found; saying so" }
        let sources = answer.sources.count
        return "Quoting \(answer.sentenceCount) sentences from \(sources) source\(sources == 1 ? "" : "s")"
    }
}

/// Sends events into the stream, pausing on the injected clock, and stops when the consumer is gone.
struct Emitter: Sendable {
    let emit: @Sendable (ResearchEvent.Kind) -> Bool
    let sleep: @Sendable (Duration) async throws -> Void
    let stageDelay: Duration
    let tokenDelay: Duration

    /// Sends a stage event; stages that start work pause for `stageDelay` after it.
    func stage(_ event: ResearchEvent.Kind, pause: Bool = true) async throws {
        try send(event)
        if pause { try await wait(stageDelay) }
    }

    func token(_ text: String) async throws {
        try send(.token(text))
        try await wait(tokenDelay)
    }

    private func send(_ event: ResearchEvent.Kind) throws {
        try Task.checkCancellation()
        guard emit(event) else { throw CancellationError() }
    }

    private func wait(_ delay: Duration) async throws {
        if delay > .zero { try await sleep(delay) }
    }
}

/// Adds up the compute time of each step, in milliseconds, for the completion's metadata.
struct Stopwatch {
    private(set) var totals: [String: Duration] = [:]

    mutating func measure<T, E: Error>(_ key: String, _ work: () throws(E) -> T) throws(E) -> T {
        let start = ContinuousClock.now
        defer { totals[key, default: .zero] += start.duration(to: .now) }
        return try work()
    }

    mutating func add(_ key: String, _ duration: Duration) {
        totals[key, default: .zero] += duration
    }

    var milliseconds: [String: JSONValue] {
        totals.mapValues { .number(AnswerBudget.milliseconds($0)) }
    }
}
