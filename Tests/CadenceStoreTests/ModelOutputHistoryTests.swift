import CadenceCore
import CadenceStore
import Foundation
import GRDB
import Testing

/// A chat model's reasoning, refusal and tool calls are saved with the answer, in a real SQLite
/// file, and come back when the conversation is opened again.
@Suite("Conversation store: reasoning, refusals and tool calls")
struct ModelOutputHistoryTests {
    let folder: TemporaryFolder
    let call = ToolCall(id: "call_1", name: "lookup", arguments: "{\"q\": \"sse\",\n \"n\": 2}")

    init() throws { folder = try TemporaryFolder() }

    @Test func theyComeBackWhenTheConversationIsReopened() async throws {
        let path = folder.path("conversations.sqlite")
        let store = try SQLiteConversationStore(path: path)
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "Why is the sky blue?")
        try await store.finishAnswer(
            "a1",
            with: .completed(
                AnswerCompletion(
                    reason: .completed, text: "Rayleigh scattering.", reasoning: "The user asks about 🌌 physics.",
                    toolCalls: [call])))
        _ = try await store.beginAnswer(id: "a2", in: chat.id, query: "Help me pick a lock")
        var refused = AnswerFailure(.server, message: "model_error")
        refused.refusal = "I can't help with that."
        try await store.finishAnswer("a2", with: .failed(refused))

        let answers = try #require(try await SQLiteConversationStore(path: path).conversation(chat.id)).answers
        #expect(answers[0].reasoning == "The user asks about 🌌 physics.")
        #expect(answers[0].toolCalls == [call])
        #expect(answers[0].refusal == "")
        #expect(answers[1].refusal == "I can't help with that.")
        #expect(answers[1].reasoning == "" && answers[1].toolCalls.isEmpty)
        #expect(answers.flatMap(\.turns).map(\.content).contains("Rayleigh scattering."))
        #expect(!answers.flatMap(\.turns).map(\.content).contains { $0.contains("physics") }, "reasoning is not context")
    }

    @Test("the reasoning time comes back in milliseconds; none was given, none comes back")
    func theReasoningTimeComesBack() async throws {
        let path = folder.path("times.sqlite")
        let store = try SQLiteConversationStore(path: path)
        let chat = try await store.createConversation()
        let completion = AnswerCompletion(reason: .completed, text: "t", reasoning: "r")
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "q")
        try await store.finishAnswer("a1", with: .completed(completion), reasoningTime: .milliseconds(4_217))
        _ = try await store.beginAnswer(id: "a2", in: chat.id, query: "q")
        try await store.finishAnswer("a2", with: .completed(completion))
        let answers = try #require(try await SQLiteConversationStore(path: path).conversation(chat.id)).answers
        #expect(answers.map(\.reasoningTime) == [.milliseconds(4_217), nil])
    }

    /// A history written before the reasoning time was kept opens, upgraded, without one.
    @Test func aHistoryWithoutReasoningTimesIsUpgraded() async throws {
        let path = folder.path("v3.sqlite")
        let store = try SQLiteConversationStore(path: path)
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "q")
        try await store.finishAnswer(
            "a1", with: .completed(AnswerCompletion(reason: .completed, text: "old", reasoning: "r")))
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE answer DROP COLUMN reasoning_ms;
                    DELETE FROM grdb_migrations WHERE identifier LIKE 'v4:%';
                    """)
        }
        try queue.close()
        let upgraded = try SQLiteConversationStore(path: path)
        let answer = try #require(try await upgraded.conversation(chat.id)?.answers.first)
        #expect(answer.reasoning == "r" && answer.reasoningTime == nil)
        _ = try await upgraded.beginAnswer(id: "a2", in: chat.id, query: "q")
        try await upgraded.finishAnswer(
            "a2", with: .completed(AnswerCompletion(reason: .completed, text: "new", reasoning: "r")),
            reasoningTime: .seconds(2))
        #expect(try await upgraded.conversation(chat.id)?.answers.last?.reasoningTime == .seconds(2))
    }

    @Test func askingAgainClearsThem() async throws {
        let store = try SQLiteConversationStore(path: folder.path("c.sqlite"))
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "q")
        try await store.finishAnswer(
            "a1", with: .completed(AnswerCompletion(reason: .completed, text: "t", reasoning: "r", toolCalls: [call])))
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "q")
        let answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.reasoning == "" && answer.toolCalls.isEmpty && answer.state == .streaming)
    }

    /// A history written before the columns existed opens, upgraded in place, its answers whole.
    @Test func anOlderHistoryIsUpgraded() async throws {
        let path = folder.path("old.sqlite")
        let store = try SQLiteConversationStore(path: path)
        let chat = try await store.createConversation()
        _ = try await store.beginAnswer(id: "a1", in: chat.id, query: "q")
        try await store.finishAnswer("a1", with: .completed(AnswerCompletion(reason: .completed, text: "old text")))
        // Back to the schema before the migration: its columns gone, its record of running gone.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE answer DROP COLUMN reasoning;
                    ALTER TABLE answer DROP COLUMN refusal;
                    ALTER TABLE answer DROP COLUMN tool_calls;
                    DELETE FROM grdb_migrations WHERE identifier LIKE 'v3:%';
                    """)
        }
        try queue.close()

        let upgraded = try SQLiteConversationStore(path: path)
        let answer = try #require(try await upgraded.conversation(chat.id)?.answers.first)
        #expect(answer.text == "old text")
        #expect(answer.reasoning == "" && answer.refusal == "" && answer.toolCalls.isEmpty)
    }
}
