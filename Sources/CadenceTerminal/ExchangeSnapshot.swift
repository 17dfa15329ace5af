public import CadenceCore
public import CadenceMarkdown
public import CadenceUI

/// What one exchange (a question and its answer) shows, as a value: the input of
/// ``TranscriptLayout``, so layout is a pure function that tests can drive without view models.
///
/// Make one from an `AnswerViewModel` on the main actor, once per frame, or build it by hand.
///
/// ```swift
/// let exchange = ExchangeSnapshot(answer)            // on the main actor
/// let byHand = ExchangeSnapshot(
///     id: "a1", question: "What is SSE?", phase: .researching(stage: "Searching corpus…"))
/// ```
public struct ExchangeSnapshot: Sendable, Hashable {
    /// Where the answer is.
    ///
    /// ```swift
    /// if case .failed(let message) = exchange.phase { print(message) }
    /// ```
    public enum Phase: Sendable, Hashable {
        /// Research or writing is under way (or the text is still being revealed); `stage` describes
        /// the latest research stage, if there was one.
        case researching(stage: String?)
        /// Finished, fully shown.
        case completed
        /// A timeout ended the answer; the text is what arrived.
        case timedOut
        /// Cancelled by the reader; the text so far stays.
        case cancelled
        /// Failed with this message; the text so far stays.
        case failed(message: String)
        /// Found unfinished when the conversation was opened again (the process died mid-answer).
        case interrupted
    }

    /// The answer's identity: the cache key of its rendered lines.
    public var id: String
    public var question: String
    public var phase: Phase
    /// The markdown of the text revealed so far.
    public var document: MarkdownTree
    /// How many blocks at the start of ``document`` are final.
    public var committedBlockCount: Int
    /// The sources, in the order their numbers are given.
    public var sources: [Source]
    public var followUps: [String]
    /// One line on the research behind a completed answer ("quick research · searched cadence,
    /// search · 2 rounds · 3 sources"), when it had research stages.
    public var researchSummary: String?
    /// How the citations are drawn: the source numbers, and the citations whose check failed.
    public var citations: CitationDisplay
    /// The model's visible reasoning: shown dimmed while ``reasoningSpan`` is open, folded to one
    /// line after.
    public var reasoning: String
    /// When the reasoning started and ended.
    public var reasoningSpan: ReasoningSpan
    /// The model's refusal, labelled as one.
    public var refusal: String
    /// The tool calls the model made, one line each.
    public var toolCalls: [ToolCall]
    /// The answer's `AnswerViewModel/version` when the snapshot was taken: two snapshots of one
    /// answer with the same version show the same, so ``TranscriptLayout`` lays such an exchange out
    /// once. `nil` (a snapshot built by hand) is laid out every time.
    public var version: Int?

    /// Without `citations`, the numbers of `sources` are drawn as citations and none is marked.
    public init(
        id: String, question: String, phase: Phase, document: MarkdownTree = MarkdownTree(blocks: []),
        committedBlockCount: Int = 0, sources: [Source] = [], followUps: [String] = [], researchSummary: String? = nil,
        citations: CitationDisplay? = nil, version: Int? = nil, reasoning: String = "",
        reasoningSpan: ReasoningSpan = ReasoningSpan(), refusal: String = "", toolCalls: [ToolCall] = []
    ) {
        self.reasoning = reasoning
        self.reasoningSpan = reasoningSpan
        self.refusal = refusal
        self.toolCalls = toolCalls
        self.version = version
        self.researchSummary = researchSummary
        self.citations = citations ?? CitationDisplay(sources: sources)
        self.id = id
        self.question = question
        self.phase = phase
        self.document = document
        self.committedBlockCount = committedBlockCount
        self.sources = sources
        self.followUps = followUps
    }

    /// The exchange as `answer` shows it now (its pacer-visible text, not everything received). A
    /// failure shows as `describingFailure` words it (by default its `AnswerFailure.message`).
    @MainActor
    public init(_ answer: AnswerViewModel, describingFailure: (AnswerFailure) -> String = \.message) {
        let phase: Phase
        switch answer.ending {
        case .cancelled?:
            phase = .cancelled
        case .failed(let failure)?:
            phase = .failed(message: describingFailure(failure))
        case .interrupted?:
            phase = .interrupted
        case .completed(let completion)? where !answer.isAnimating:
            phase = completion.reason == .timedOut ? .timedOut : .completed
        default:
            phase = .researching(stage: answer.stages.last { $0.stageDescription != nil }?.stageDescription)
        }
        self.init(
            id: answer.id, question: answer.query, phase: phase, document: answer.document,
            committedBlockCount: answer.committedBlockCount, sources: answer.sources, followUps: answer.followUps,
            researchSummary: Self.summary(of: answer.stages, sources: answer.sources.count),
            citations: answer.citationDisplay, version: answer.version, reasoning: answer.reasoning,
            reasoningSpan: answer.reasoningSpan, refusal: answer.refusal, toolCalls: answer.toolCalls)
    }

    /// The research stages in one line: the tier, the collections searched, the rounds, the sources kept.
    static func summary(of stages: [ResearchEvent.Kind], sources: Int) -> String? {
        var tier: String?
        var searched: [String] = []
        var rounds = 0
        for stage in stages {
            switch stage {
            case .tierSelected(let chosen, _): tier = chosen
            case .searching(let source) where !searched.contains(source): searched.append(source)
            case .roundStarted: rounds += 1
            default: break
            }
        }
        guard tier != nil || !searched.isEmpty || rounds > 0 else { return nil }
        var parts: [String] = []
        if let tier { parts.append("\(tier) research") }
        if !searched.isEmpty { parts.append("searched " + searched.joined(separator: ", ")) }
        if rounds > 0 { parts.append("\(rounds) round\(rounds == 1 ? "" : "s")") }
        parts.append("\(sources) source\(sources == 1 ? "" : "s")")
        return parts.joined(separator: " · ")
    }

    /// Whether the spinner turns for this exchange.
    public var isRunning: Bool {
        if case .researching = phase { return true }
        return false
    }
}

/// The whole conversation as values, oldest exchange first.
///
/// ```swift
/// let transcript = TranscriptSnapshot(chat)          // on the main actor
/// let lines = layout.lines(for: transcript, width: 80, time: now)
/// ```
public struct TranscriptSnapshot: Sendable, Hashable {
    public var exchanges: [ExchangeSnapshot]

    public init(exchanges: [ExchangeSnapshot]) {
        self.exchanges = exchanges
    }

    /// The conversation of `chat` (whose answers are newest first), oldest first.
    @MainActor
    public init(_ chat: ChatViewModel, describingFailure: (AnswerFailure) -> String = \.message) {
        exchanges = chat.answers.reversed().map { ExchangeSnapshot($0, describingFailure: describingFailure) }
    }

    /// The conversation of `chat`, taking each answer whose version has not changed from `earlier`
    /// instead of reading it again: what changed is all that is read.
    @MainActor
    public init(
        _ chat: ChatViewModel, reusing earlier: TranscriptSnapshot,
        describingFailure: (AnswerFailure) -> String = \.message
    ) {
        var known: [Int: ExchangeSnapshot] = [:]
        for exchange in earlier.exchanges {
            if let version = exchange.version { known[version] = exchange }
        }
        exchanges = chat.answers.reversed().map {
            known[$0.version] ?? ExchangeSnapshot($0, describingFailure: describingFailure)
        }
    }

    /// The versions of the exchanges, oldest first: equal versions show equal transcripts.
    public var versions: [Int?] { exchanges.map(\.version) }

    /// Whether any exchange shows a spinner.
    public var isRunning: Bool { exchanges.contains { $0.isRunning } }
}
