public import CadenceCore
public import Foundation

/// How a stored answer stands: still streaming, or the way it ended.
///
/// `interrupted` is never written by a running answer: opening the store turns the answers a
/// crashed process left `streaming` into `interrupted`, keeping their last checkpointed text.
///
/// ```swift
/// if answer.state == .interrupted { print("(recovered after a crash) \(answer.text)") }
/// ```
public enum AnswerState: String, Sendable, Hashable, CaseIterable, Codable {
    /// The answer is still arriving; its text is the last checkpoint.
    case streaming
    /// The server completed the answer.
    case completed
    /// A timeout ended the answer; the text is what arrived before it.
    case timedOut = "timed_out"
    /// The answer failed; the text is what arrived before the failure.
    case failed
    /// The user cancelled the answer; the text is what arrived before.
    case cancelled
    /// The process writing the answer died mid-stream; the text is its last checkpoint.
    case interrupted

    /// Whether the answer has ended (every state but ``streaming``).
    public var isTerminal: Bool { self != .streaming }

    /// The word shown in lists: "completed", "timed out", "failed", "cancelled", "interrupted", "streaming".
    public var label: String {
        switch self {
        case .timedOut: "timed out"
        default: rawValue
        }
    }
}

/// One question and its answer, as stored: the text, sources, citations, follow-ups, metadata,
/// tier and how it ended.
///
/// ```swift
/// let answer = try await store.beginAnswer(id: "a1", in: conversation.id, query: "What is SSE?")
/// print(answer.position, answer.state)   // 0 streaming
/// ```
public struct StoredAnswer: Sendable, Hashable, Identifiable {
    public var id: String
    public var conversationID: String
    /// Order in the conversation, from 0 (the first question).
    public var position: Int
    /// The user's question.
    public var query: String
    /// The answer text: complete once ended, the last checkpoint while streaming or interrupted.
    public var text: String
    /// Sources, deduplicated by URL, in first-seen order.
    public var sources: [Source]
    /// The ids of the sources the text cites (`[1]` cites the source with id `"1"`), in first-cited order.
    public var citations: [String]
    public var followUps: [String]
    public var metadata: [String: JSONValue]
    /// The research tier the server chose, if it said.
    public var tier: String?
    public var state: AnswerState
    /// Why a failed answer failed.
    public var failureMessage: String?
    /// The model's visible reasoning, saved when the answer ended; empty when there was none.
    public var reasoning: String
    /// The model's refusal, kept apart from ``text``; empty when it did not refuse.
    public var refusal: String
    /// The tool calls the model made, in order.
    public var toolCalls: [ToolCall]
    /// How long the model reasoned before the answer began, when it reasoned and the time was kept.
    public var reasoningTime: Duration?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, conversationID: String, position: Int, query: String, text: String = "",
        sources: [Source] = [], citations: [String] = [], followUps: [String] = [],
        metadata: [String: JSONValue] = [:], tier: String? = nil, state: AnswerState = .streaming,
        failureMessage: String? = nil, reasoning: String = "", refusal: String = "", toolCalls: [ToolCall] = [],
        reasoningTime: Duration? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.reasoning = reasoning
        self.reasoningTime = reasoningTime
        self.refusal = refusal
        self.toolCalls = toolCalls
        self.id = id
        self.conversationID = conversationID
        self.position = position
        self.query = query
        self.text = text
        self.sources = sources
        self.citations = citations
        self.followUps = followUps
        self.metadata = metadata
        self.tier = tier
        self.state = state
        self.failureMessage = failureMessage
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The exchange as chat turns for a follow-up's history: the question, then the answer text.
    /// Answers that produced no text contribute only nothing.
    public var turns: [ChatTurn] {
        guard !text.isEmpty else { return [] }
        return [ChatTurn(role: "user", content: query), ChatTurn(role: "assistant", content: text)]
    }
}

/// A conversation with its answers, oldest first.
///
/// ```swift
/// if let conversation = try await store.conversation(id) {
///     let history = conversation.history           // context for the next question
///     for answer in conversation.answers { print(answer.query, answer.state.label) }
/// }
/// ```
public struct Conversation: Sendable, Hashable, Identifiable {
    public var summary: ConversationSummary
    /// Every answer, oldest first.
    public var answers: [StoredAnswer]

    public init(summary: ConversationSummary, answers: [StoredAnswer]) {
        self.summary = summary
        self.answers = answers
    }

    public var id: String { summary.id }
    public var title: String { summary.title }

    /// The conversation as chat turns, oldest first: the context a follow-up question is sent with
    /// (seed 000). Completed answers and partial ones that kept text both count.
    public var history: [ChatTurn] { answers.flatMap(\.turns) }
}

/// What ended an answer, as ``ConversationStore/finishAnswer(_:with:)`` records it.
///
/// ```swift
/// if let ending = AnswerEnding(update) { try await store.finishAnswer(id, with: ending) }
/// ```
public enum AnswerEnding: Sendable, Hashable {
    case completed(AnswerCompletion)
    case failed(AnswerFailure)
    case cancelled(partialText: String)

    /// The ending an answer's terminal update carries; `nil` for any other update.
    public init?(_ update: AnswerUpdate) {
        switch update {
        case .completed(let completion): self = .completed(completion)
        case .failed(let failure): self = .failed(failure)
        case .cancelled(let partialText): self = .cancelled(partialText: partialText)
        case .textAppended, .reasoningAppended, .refusalAppended, .toolCallReceived, .sourcesMerged, .stageChanged,
            .reconnecting, .reconnected:
            return nil
        }
    }

    /// The state stored for this ending.
    public var state: AnswerState {
        switch self {
        case .completed(let completion): completion.reason == .timedOut ? .timedOut : .completed
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    /// The model's reasoning, refusal and tool calls as the ending carries them (a cancellation
    /// carries none).
    public var modelOutput: (reasoning: String, refusal: String, toolCalls: [ToolCall]) {
        switch self {
        case .completed(let completion): (completion.reasoning, completion.refusal, completion.toolCalls)
        case .failed(let failure): (failure.reasoning, failure.refusal, failure.toolCalls)
        case .cancelled: ("", "", [])
        }
    }

    /// The answer's final text.
    public var text: String {
        switch self {
        case .completed(let completion): completion.text
        case .failed(let failure): failure.partialText
        case .cancelled(let partialText): partialText
        }
    }
}
