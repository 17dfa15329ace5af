public import CadenceCore

/// Where conversations live: create, list, open, rename and delete them, and record each answer
/// from its first token to how it ended.
///
/// ``SQLiteConversationStore`` is the implementation: a SQLite file (WAL) on disk, or memory for
/// previews and tests. An answer is recorded in three steps:
/// 1. ``beginAnswer(id:in:query:)`` when the question is sent (state `streaming`);
/// 2. ``checkpointAnswer(_:appending:sources:tier:)`` while it streams, with the text that arrived
///    since the last checkpoint, so a crash loses at most the last checkpoint interval and the text
///    is written once however long it grows (``AnswerRecorder`` paces these);
/// 3. ``finishAnswer(_:with:)`` when it reaches a terminal state.
///
/// ```swift
/// let store = try SQLiteConversationStore(path: SQLiteConversationStore.defaultPath())
/// let chat = try await store.createConversation()
/// let answer = try await store.beginAnswer(id: "a1", in: chat.id, query: "What is SSE?")
/// try await store.checkpointAnswer(answer.id, appending: "Server-sent events", sources: [], tier: nil)
/// try await store.checkpointAnswer(answer.id, appending: " are", sources: nil, tier: nil)
/// try await store.finishAnswer(answer.id, with: .cancelled(partialText: "Server-sent events are"))
/// ```
public protocol ConversationStore: Sendable {
    /// Starts a conversation. `title` defaults to the placeholder, replaced by the first question.
    func createConversation(id: String?, title: String?) async throws -> ConversationSummary
    /// Every conversation, most recently updated first.
    func conversations() async throws -> [ConversationSummary]
    /// A conversation with its answers, or `nil` if there is none with that id.
    func conversation(_ id: String) async throws -> Conversation?
    /// Renames a conversation. Throws ``ConversationStoreError/notFound(_:)`` for an unknown id.
    func renameConversation(_ id: String, to title: String) async throws
    /// Deletes a conversation and its answers. Throws ``ConversationStoreError/notFound(_:)`` for an unknown id.
    func deleteConversation(_ id: String) async throws
    /// Records a question, after the conversation's earlier ones, with an empty streaming answer.
    /// Beginning an id that exists (a retry) starts that answer over in its place.
    func beginAnswer(id: String, in conversationID: String, query: String) async throws -> StoredAnswer
    /// Saves a streaming answer's progress, replacing the text saved so far with `text`. Ignored once
    /// the answer has ended.
    func checkpointAnswer(_ id: String, text: String, sources: [Source], tier: String?) async throws
    /// Saves a streaming answer's progress: `chunk` goes after the text saved so far, which is not
    /// written again; `sources` and `tier`, when given, replace the saved ones. Ignored once the
    /// answer has ended.
    func checkpointAnswer(_ id: String, appending chunk: String, sources: [Source]?, tier: String?) async throws
    /// Records how an answer ended, with its final text, sources, citations, follow-ups and metadata,
    /// and the model's reasoning, refusal and tool calls, and how long the model reasoned before the
    /// answer began (`reasoningTime`, when it did), for the folded "thought for 4 s".
    /// A final text that continues the saved one is written as what it adds.
    func finishAnswer(_ id: String, with ending: AnswerEnding, reasoningTime: Duration?) async throws
}

extension ConversationStore {
    /// Records how an answer ended, as ``finishAnswer(_:with:reasoningTime:)`` does, with no
    /// reasoning time.
    public func finishAnswer(_ id: String, with ending: AnswerEnding) async throws {
        try await finishAnswer(id, with: ending, reasoningTime: nil)
    }

    /// Starts a conversation with a new identifier and the placeholder title.
    public func createConversation() async throws -> ConversationSummary {
        try await createConversation(id: nil, title: nil)
    }
}
