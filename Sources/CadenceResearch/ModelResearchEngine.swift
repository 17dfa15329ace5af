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

/// The loop that owns one answer's machine, model call and timer (a `DriverLoop`, as the answer
/// stream's driver does): output of a closed or replaced call never reaches the machine.
///
/// It is built like `AnswerStreamDriver` (CadenceClient), over the same `DriverLoop`.
enum ResearchDriver {
    /// What one model call delivers.
    enum Delivery: Sendable {
        case event(ModelEvent)
        case ended
        case failed(ResearchMachine.ModelFailure)
        /// A round's searches ended, one outcome per source.
        case searched([SearchOutcome])
        /// A round's pages were read, one reading per URL.
        case pagesRead([PageReading])
    }

    static func run(
        _ initial: ResearchMachine, engine: ModelResearchEngine, timer: DeadlineTimer,
        emit: (ResearchEvent.Kind) -> Bool
    ) async {
        var machine = initial
        let loop = DriverLoop<Delivery>(timer: timer)
        let now = loop.now
        /// When the current model call was made, until its first token arrives.
        var callAwaitingFirstToken: Duration?
        defer { loop.end() }

        /// Performs the machine's actions; returns false once the answer is over.
        func perform(_ actions: [ResearchMachine.Action]) -> Bool {
            let pending = actions
            var index = 0
            while index < pending.count {
                // A cancelled answer stops between steps: nothing it would still do reaches anyone.
                if Task.isCancelled { return false }
                let action = pending[index]
                index += 1
                switch action {
                case .emit(let event):
                    guard emit(event) else { return false }
                case .finish:
                    return false
                case .closeModelCall:
                    loop.closeTask()
                    callAwaitingFirstToken = nil
                case .callModel(let call):
                    callAwaitingFirstToken = now()
                    let options = ModelRequestOptions(json: call.wantsJSON)
                    loop.start { startCall(call.turns, options: options, client: engine.client, deliver: $0) }
                case .search(let queries):
                    let (fanout, limit, timeLeft) = (
                        engine.fanout, engine.configuration.passagesPerQuery, machine.searchTimeLeft
                    )
                    loop.start { deliver in
                        Task {
                            let outcomes = await fanout.search(queries, limit: limit, timeLeft: timeLeft)
                            if !Task.isCancelled { deliver(.searched(outcomes)) }
                        }
                    }
                case .readPages(let urls, let queries):
                    // The machine asks only when the engine has a reader (else its pagesPerRound is 0).
                    let (reader, timeLeft) = (engine.pages, machine.searchTimeLeft)
                    loop.start { deliver in
                        Task {
                            let readings =
                                await reader?.read(urls, for: queries, within: timeLeft)
                                ?? urls.map { PageReading(url: $0, failure: "this engine reads no pages") }
                            if !Task.isCancelled { deliver(.pagesRead(readings)) }
                        }
                    }
                }
            }
            loop.keep(machine.nextDeadline)
            return true
        }

        guard perform(machine.start(now: .zero)) else { return }
        let over = await loop.run(deadlinePassed: { perform(machine.deadlinePassed(now: now())) }) { delivery in
            switch delivery {
            case .event(let event):
                if let madeAt = callAwaitingFirstToken, event.isToken {
                    callAwaitingFirstToken = nil
                    engine.observer?.modelFirstToken(after: now() - madeAt)
                }
                return perform(machine.modelEvent(event, now: now()))
            case .ended:
                return perform(machine.modelEnded(now: now()))
            case .failed(let failure):
                return perform(machine.modelFailed(failure, now: now()))
            case .searched(let outcomes):
                return perform(machine.searchCompleted(outcomes, now: now()))
            case .pagesRead(let readings):
                return perform(machine.pagesRead(readings, now: now()))
            }
        }
        // The consumer went away (the answer was cancelled): close the model call.
        if !over { _ = machine.cancel() }
    }

    /// Streams one model call in a task of its own and delivers what it reads (the chat engine's
    /// calls too). Cancelling the task closes the model's HTTP request.
    static func startCall(
        _ turns: [ChatTurn], options: ModelRequestOptions, client: ModelClient,
        deliver: @escaping @Sendable (Delivery) -> Void
    ) -> Task<Void, Never> {
        Task {
            do {
                for try await event in client.stream(turns, options: options) {
                    deliver(.event(event))
                }
                if !Task.isCancelled { deliver(.ended) }
            } catch {
                if Task.isCancelled { return }
                deliver(.failed(failure(error)))
            }
        }
    }

    static func failure(_ error: any Error) -> ResearchMachine.ModelFailure {
        guard let error = error as? CadenceClientError else {
            return ResearchMachine.ModelFailure(message: "\(error)", retryable: false)
        }
        return ResearchMachine.ModelFailure(
            message: error.message, retryable: error.shouldRetry,
            retryAfter: error.retryAfter, status: error.status)
    }
}

extension ModelEvent {
    /// Whether the event is a token the model wrote, for the first-token latency.
    var isToken: Bool {
        switch self {
        case .text(let text, _), .reasoning(let text, _), .refusal(let text, _): !text.isEmpty
        case .toolCall: true
        case .usage, .finish, .error: false
        }
    }
}
