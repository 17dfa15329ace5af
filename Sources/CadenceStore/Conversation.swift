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

extension AnswerState {
    /// The state a store records for an answer that ended this way: a completion cut by a timeout
    /// is ``AnswerState/timedOut``, the other endings are stored under their own names.
    ///
    /// ```swift
    /// AnswerState(.cancelled(partialText: "Half"))   // .cancelled
    /// ```
    public init(_ ending: AnswerEnding) {
        switch ending {
        case .completed: self = ending.isTimedOut ? .timedOut : .completed
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        case .interrupted: self = .interrupted
        }
    }
}

extension StoredAnswer {
    /// How the stored answer ended, whole, as it was recorded. An answer still ``AnswerState/streaming``
    /// (another process writes it, or a crash left it before the store was opened again) reads as
    /// interrupted, with its last checkpointed text.
    ///
    /// A failure keeps its message and the answer's partial text and sources; what it was coded
    /// is not stored, so it reads back as `AnswerFailure.Code.connection`.
    public var ending: AnswerEnding {
        switch state {
        case .completed, .timedOut:
            .completed(
                AnswerCompletion(
                    reason: state == .timedOut ? .timedOut : .completed, text: text, sources: sources,
                    followUps: followUps, metadata: metadata, reasoning: reasoning, refusal: refusal,
                    toolCalls: toolCalls))
        case .failed:
            .failed(storedFailure)
        case .cancelled:
            .cancelled(partialText: text)
        case .streaming, .interrupted:
            .interrupted(partialText: text)
        }
    }

    private var storedFailure: AnswerFailure {
        var failure = AnswerFailure(.connection, message: failureMessage ?? "failed", partialText: text, sources: sources)
        (failure.reasoning, failure.refusal, failure.toolCalls) = (reasoning, refusal, toolCalls)
        return failure
    }
}
