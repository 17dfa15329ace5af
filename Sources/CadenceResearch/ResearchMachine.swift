public import CadenceCore
public import CadenceSearch

/// The pure core of model-driven research: it takes what happened (model output, search results,
/// deadlines) and says what to do next, streaming every stage truthfully as research events.
///
/// The loop: **plan** (the model proposes 1–4 queries as JSON; prose or broken JSON falls back to
/// the question itself), **search rounds** (each query's passages, deduplicated), **reflect** (the
/// model says whether the passages suffice or which queries to run next; at most
/// ``ResearchConfiguration/maxRounds`` rounds, and a round that adds nothing ends the research),
/// **select** (the best passages, numbered, as `sources_ready`) and **write** (the model's answer as
/// `token` events, its citations checked by a ``CitationProcessor`` as they stream).
///
/// Like `AnswerStreamMachine`, it does no I/O and reads no clock. Its driver
/// (``ModelResearchEngine``) performs the returned ``Action``s in order and reports back:
///
/// ```swift
/// var machine = ResearchMachine(request: AnswerRequest(query: "How does resume work?"),
///                               configuration: ResearchConfiguration(), random: SplitMix64(seed: 1))
/// machine.start(now: .zero)             // [.emit(.tierSelected…), .emit(.planningStarted…), .callModel(plan)]
/// machine.modelEvent(.text(#"{"queries":["resume"]}"#), now: .milliseconds(300))   // []
/// machine.modelEvent(.finish(.stop), now: .milliseconds(310))                      // []
/// machine.modelEnded(now: .milliseconds(320))   // [.emit(.planningComplete…), .emit(.roundStarted…), …, .search(["resume"])]
/// machine.searchCompleted([passages], now: .milliseconds(321))                     // … reflection or writing
/// ```
///
/// ## Driving it
/// - `now` is the time since the answer started on the driver's clock, never decreasing.
/// - `callModel` starts a model call (closing any earlier one); report its events with
///   ``modelEvent(_:now:)``, then exactly one of ``modelEnded(now:)`` (the stream ended) or
///   ``modelFailed(_:now:)`` (it threw). `closeModelCall` closes the current call; report nothing
///   more from it. Input from a closed call must be dropped by the driver.
/// - `search` runs the queries on every source of ``searchSources`` and reports one `SearchOutcome` per
///   source, each with one result list per query, within ``searchTimeLeft``.
/// - `readPages` fetches the pages (guarded) within ``searchTimeLeft``, ranks each page's passages
///   for the queries, and reports ``pagesRead(_:now:)`` with one ``PageReading`` per URL.
/// - When nothing happens, sleep until ``nextDeadline`` and call ``deadlinePassed(now:)``.
/// - Stop after `finish`: the last emitted event was `complete` or `error`. ``cancel()`` stops at once.
public struct ResearchMachine: Sendable {
    /// What the driver must do, in order.
    public enum Action: Sendable, Hashable {
        /// Send this event to the readers.
        case emit(ResearchEvent.Kind)
        /// Start a model call (closing any call still open).
        case callModel(ModelCall)
        /// Close the current model call.
        case closeModelCall
        /// Run these queries on every search source within ``searchTimeLeft``, and report
        /// `searchCompleted(_:now:)` with one outcome per source.
        case search([String])
        /// Read these web pages (within ``searchTimeLeft``) and rank each one's passages for the
        /// round's `queries`; report ``pagesRead(_:now:)`` with one reading per URL.
        case readPages(urls: [String], queries: [String])
        /// The answer is over; stop.
        case finish
    }

    /// One request to the model.
    public struct ModelCall: Sendable, Hashable {
        public enum Purpose: String, Sendable, Hashable {
            case plan, reflect, write
        }

        public var purpose: Purpose
        public var turns: [ChatTurn]
        /// Ask for a JSON object (`response_format` on OpenAI-compatible servers).
        public var wantsJSON: Bool
        /// 1 for the first try of this call, 2 for its first retry, and so on.
        public var attempt: Int
    }

    /// Why a model call threw.
    public struct ModelFailure: Sendable, Hashable {
        public var message: String
        public var retryable: Bool
        public var retryAfter: Duration?
        public var status: Int?

        public init(message: String, retryable: Bool, retryAfter: Duration? = nil, status: Int? = nil) {
            self.message = message
            self.retryable = retryable
            self.retryAfter = retryAfter
            self.status = status
        }
    }

    /// The call in flight, with what it has sent so far.
    struct Call: Sendable {
        var model: ModelCall
        var startedAt: Duration
        var lastActivityAt: Duration
        /// Reply text of a plan or reflection call (capped).
        var reply = ""
        var finish: FinishReason?
        var usage: ModelUsage?
        /// A failure reported inside the stream, waiting for its end.
        var streamError: ModelError?
        /// Whether this call sent text that readers saw (writing only).
        var sentText = false
    }

    enum State: Sendable {
        case idle
        case calling(Call)
        /// Waiting out a retry delay before calling again.
        case waitingToRetry(ModelCall, until: Duration)
        case searching(startedAt: Duration)
        /// Reading the round's best pages; the round's merge (`added` passages) is done.
        case readingPages(startedAt: Duration, added: Int, everySourceFailed: Bool)
        case finished
    }

    public let request: AnswerRequest
    public let configuration: ResearchConfiguration
    /// The model's name, reported in the completion's metadata.
    public let model: String?
    var state: State = .idle
    var random: any RandomNumberGenerator & Sendable

    /// The queries of each round, as run.
    public internal(set) var rounds: [[String]] = []
    /// Every passage found, in the order first found, with its best relative score.
    var found: [RetrievedPassage] = []
    /// The position in ``found`` of each passage, under each of its identities (see `RetrievedPassage.identities`).
    var foundIndex: [String: Int] = [:]
    /// The names of the sources every round searches, in order.
    public let searchSources: [String]
    /// The sources that failed, with why, in the order reported.
    var searchFailures: [(source: String, reason: String)] = []
    /// How many of the rounds' source searches answered (with results or without).
    var searchesAnswered = 0
    /// The sources sent in `sources_ready`, numbered from 1.
    public internal(set) var sources: [RetrievedPassage] = []
    var citations = CitationProcessor(sources: [])
    /// Token counts, summed over finished calls.
    var usage = ModelUsage()
    var calls = 0
    var stageTimes: [String: Duration] = [:]
    /// The identities of the pages asked for, read or not, so that no page is fetched twice.
    var pagesAsked: Set<String> = []
    /// What the current round's page reading did, for its `round_complete` status.
    var roundPages: String?
    /// Reflection's queries that were not run, offered as follow-ups.
    var unexplored: [String] = []

    public init(
        request: AnswerRequest, configuration: ResearchConfiguration = ResearchConfiguration(), model: String? = nil,
        searchSources: [String] = ["corpus"],
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.request = request
        self.searchSources = searchSources
        self.configuration = configuration
        self.model = model
        self.random = random
    }

    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// When the driver must call ``deadlinePassed(now:)`` if nothing else happens first: the model
    /// call's idle deadline, the end of a retry wait, or the end of the answer's time budget
    /// (``ResearchConfiguration/maxAnswerTime``), whichever comes first.
    public var nextDeadline: Duration? {
        switch state {
        case .calling(let call): configuration.withinBudget(configuration.idleDeadline(after: call.lastActivityAt))
        case .waitingToRetry(_, let until): configuration.withinBudget(until)
        case .searching, .readingPages: configuration.maxAnswerTime
        case .idle, .finished: nil
        }
    }

    /// The question, trimmed.
    var question: String { request.query.trimmingWhitespace }

    /// Starts the research.
    public mutating func start(now: Duration) -> [Action] {
        guard case .idle = state else { return [] }
        let rounds = configuration.maxRounds
        let reason = "a model plans the searches, reflects on what they found (up to \(rounds) round\(rounds == 1 ? "" : "s")) and writes a cited answer"
        let plan = ModelCall(
            purpose: .plan,
            turns: ResearchPrompts.plan(
                question: question, history: request.history, maxQueries: configuration.maxQueries),
            wantsJSON: true, attempt: 1)
        return [
            .emit(.tierSelected(tier: "deep", reason: reason)),
            .emit(.planningStarted(message: "Asking the model which searches to run")),
        ] + call(plan, now: now)
    }

    /// Stops at once: closes the model call, sends nothing more.
    public mutating func cancel() -> [Action] {
        let open: Bool
        if case .calling = state { open = true } else { open = false }
        state = .finished
        return open ? [.closeModelCall] : []
    }

    /// Starts `model` and waits for it.
    mutating func call(_ model: ModelCall, now: Duration) -> [Action] {
        state = .calling(Call(model: model, startedAt: now, lastActivityAt: now))
        return [.callModel(model)]
    }

    /// Ends the answer with an `error` event after the text so far. Text the citation processor
    /// still holds (a half-typed citation, a trailing space) is not sent: the answer is cut anyway.
    mutating func fail(code: String, message: String, closing: Bool) -> [Action] {
        state = .finished
        return (closing ? [.closeModelCall] : []) + [.emit(.error(code: code, message: message)), .finish]
    }
}
