public import CadenceCore

/// The limits of one model-driven research answer, read by ``ResearchMachine``.
///
/// ```swift
/// var configuration = ResearchConfiguration()   // 3 rounds, 4 queries, 6 sources, 60 s model idle timeout,
///                                               // 10 min and 200,000 tokens per answer
/// configuration.maxRounds = 2
/// configuration.modelIdleTimeout = .seconds(30)
/// ```
public struct ResearchConfiguration: Sendable, Hashable {
    /// The most search rounds (the first included). A round that adds no new passage ends the research early.
    public var maxRounds: Int
    /// The most queries run in one round (the plan asks the model for 1 to this many).
    public var maxQueries: Int
    /// Passages kept per query.
    public var passagesPerQuery: Int
    /// The most sources the answer may cite.
    public var maxSources: Int
    /// The most sources taken from one document, so one long document cannot crowd out the rest.
    public var maxSourcesPerDocument: Int
    /// The most characters of one passage shown to the model.
    public var passageCharacters: Int
    /// How long a model call may go without sending anything before it is closed and the answer ends.
    public var modelIdleTimeout: Duration
    /// Attempts and backoff for a model call that fails before it produced anything (429, 5xx, refused
    /// connections). Only `ReliabilityConfiguration/maxAttempts`, the backoff and the `Retry-After`
    /// cap are read; the answer-stream timeouts do not apply here.
    public var retry: ReliabilityConfiguration
    /// The longest an answer may take, from its start; past it, the answer ends with an `error` event
    /// whose code is `budget_exceeded`, after the text so far.
    public var maxAnswerTime: Duration
    /// The most model tokens (input plus output, summed over the answer's calls, as the model reports
    /// them) an answer may use; past it, the answer ends with `budget_exceeded` as for time.
    public var maxAnswerTokens: Int
    /// The most time an answer's searches may take, all rounds together; a round that would start
    /// past it is skipped and the answer is written from what was found.
    public var searchBudget: Duration
    /// The longest one source may take for one query before it is reported as failed.
    public var searchTimeout: Duration
    /// The most web pages read in one round: the best web results the round added, whose readable
    /// text replaces their snippets (0: snippets only). Reading counts against ``searchBudget``.
    public var pagesPerRound: Int
    /// The share of a cited sentence's content words that its source must contain for the citation
    /// to count as supported.
    public var supportThreshold: Double

    public init(
        maxRounds: Int = 3,
        maxQueries: Int = 4,
        passagesPerQuery: Int = 5,
        maxSources: Int = 6,
        maxSourcesPerDocument: Int = 2,
        passageCharacters: Int = 1_500,
        modelIdleTimeout: Duration = .seconds(60),
        retry: ReliabilityConfiguration = ReliabilityConfiguration(maxAttempts: 3),
        supportThreshold: Double = CitationSupport.defaultThreshold,
        maxAnswerTime: Duration = .seconds(600),
        maxAnswerTokens: Int = 200_000,
        searchBudget: Duration = .seconds(30),
        searchTimeout: Duration = .seconds(10),
        pagesPerRound: Int = 3
    ) {
        self.pagesPerRound = max(0, pagesPerRound)
        self.searchBudget = searchBudget
        self.searchTimeout = searchTimeout
        self.maxRounds = max(1, maxRounds)
        self.maxQueries = max(1, maxQueries)
        self.passagesPerQuery = max(1, passagesPerQuery)
        self.maxSources = max(1, maxSources)
        self.maxSourcesPerDocument = max(1, maxSourcesPerDocument)
        self.passageCharacters = max(200, passageCharacters)
        self.modelIdleTimeout = modelIdleTimeout
        self.retry = retry
        self.supportThreshold = supportThreshold
        self.maxAnswerTime = maxAnswerTime
        self.maxAnswerTokens = maxAnswerTokens
    }
}
