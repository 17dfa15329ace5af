import CadenceCore
import CadenceStore
import GRDB
import Testing

/// The worked example of CadenceStore's documentation catalog ("Recording a conversation"), run as
/// written, so the catalog stays true.
@Suite struct DocumentationExampleTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    @Test func recordingAConversation() async throws {
        let path = folder.path("chat.sqlite")
        let store = try SQLiteConversationStore(path: path)
        let conversation = try await store.createConversation()

        let recorder = AnswerRecorder(store: store, answerID: "a1", clock: ContinuousClock(), interval: .milliseconds(250))
        try await recorder.begin(in: conversation.id, query: "What is SSE?")
        for update: AnswerUpdate in [
            .textAppended("Server-sent events "), .textAppended("are one-way [1]."),
            .completed(AnswerCompletion(reason: .completed, text: "Server-sent events are one-way [1].")),
        ] {
            try await recorder.record(update)
        }

        let saved = try #require(try await store.conversation(conversation.id))
        #expect(saved.title == "What is SSE?")
        #expect(saved.answers[0].state == .completed)
        #expect(saved.answers[0].text == "Server-sent events are one-way [1].")
        #expect(saved.history == [
            ChatTurn(role: "user", content: "What is SSE?"),
            ChatTurn(role: "assistant", content: "Server-sent events are one-way [1]."),
        ])

        // "A crash mid-answer": an answer checkpointed by a process that no longer runs.
        _ = try await store.beginAnswer(id: "a2", in: conversation.id, query: "And WebSocket?")
        try await store.checkpointAnswer("a2", text: "Server-sent events ", sources: [], tier: nil)
        let dead = try exitedProcessID()
        try await DatabaseQueue(path: path).write {
            try $0.execute(sql: "UPDATE answer SET writer_pid = ? WHERE id = 'a2'", arguments: [dead])
        }
        let reopened = try SQLiteConversationStore(path: path)
        #expect(reopened.recoveredAnswerIDs == ["a2"])
        let answers = try #require(try await reopened.conversation(conversation.id)).answers
        #expect(answers[1].state == .interrupted && answers[1].text == "Server-sent events ")
    }
}
