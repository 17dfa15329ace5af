import CadenceCore
import CadenceStore
import CadenceTesting
import Foundation
import Testing

@Suite("Answer recorder: checkpoints on an injected clock")
struct AnswerRecorderTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func storedText(_ store: SQLiteConversationStore, _ chat: String) async throws -> (String, AnswerState?) {
        let answer = try await store.conversation(chat)?.answers.first
        return (answer?.text ?? "", answer?.state)
    }

    @Test func progressIsCheckpointedAtMostOncePerIntervalAndTheRestTrails() async throws {
        let store = try SQLiteConversationStore(path: folder.path("c.sqlite"))
        let chat = try await store.createConversation()
        let clock = ManualClock()
        let recorder = AnswerRecorder(store: store, answerID: "a", clock: clock, interval: .milliseconds(250))
        try await recorder.begin(in: chat.id, query: "q")

        try await recorder.record(.textAppended("Hello"))
        #expect(try await storedText(store, chat.id) == ("Hello", .streaming), "the first text is saved at once")

        clock.advance(by: .milliseconds(100))
        try await recorder.record(.textAppended(", world"))
        try await recorder.record(.stageChanged(.synthesisStarted(message: nil)))
        #expect(try await storedText(store, chat.id).0 == "Hello", "inside the interval nothing is written")
        #expect(await recorder.checkpointCount == 1)

        await clock.waitForSleep(until: .milliseconds(250))
        clock.advance(by: .milliseconds(150))
        try await waitUntil { await recorder.checkpointCount == 2 }
        try await recorder.flush()
        #expect(try await storedText(store, chat.id).0 == "Hello, world", "a quiet stream still gets its trailing checkpoint")

        clock.advance(by: .milliseconds(300))
        try await recorder.record(.sourcesMerged(sampleSources))
        #expect(await recorder.checkpointCount == 3, "after the interval the next update writes at once")

        try await recorder.record(.completed(AnswerCompletion(reason: .completed, text: "Hello, world [1]", sources: [])))
        let answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.state == .completed && answer.text == "Hello, world [1]")
        #expect(answer.sources == sampleSources && answer.citations == ["1"])

        try await recorder.record(.cancelled(partialText: "late"))
        #expect(try await storedText(store, chat.id) == ("Hello, world [1]", .completed), "nothing after the end")
    }

    @Test("how long the model reasoned before the answer began is saved with the ending")
    func theReasoningTimeIsSaved() async throws {
        let store = try SQLiteConversationStore.inMemory()
        let chat = try await store.createConversation()
        let clock = ManualClock()
        let recorder = AnswerRecorder(store: store, answerID: "a", clock: clock, interval: .zero)
        try await recorder.begin(in: chat.id, query: "q")
        clock.advance(by: .seconds(1))
        try await recorder.record(.reasoningAppended("The user asks"))
        clock.advance(by: .milliseconds(2_000))
        try await recorder.record(.reasoningAppended(" about light."))
        clock.advance(by: .milliseconds(2_200))
        try await recorder.record(.textAppended("Rayleigh"))
        clock.advance(by: .seconds(9))
        try await recorder.record(
            .completed(AnswerCompletion(reason: .completed, text: "Rayleigh", reasoning: "The user asks about light.")))
        let answer = try #require(try await store.conversation(chat.id)?.answers.first)
        #expect(answer.reasoningTime == .milliseconds(4_200), "from the first reasoning to the first text")
    }

    @Test func zeroIntervalCheckpointsEveryUpdate() async throws {
        let store = try SQLiteConversationStore.inMemory()
        let chat = try await store.createConversation()
        let recorder = AnswerRecorder(store: store, answerID: "a", clock: ManualClock(), interval: .zero)
        try await recorder.begin(in: chat.id, query: "q")
        for word in ["One ", "two ", "three"] {
            try await recorder.record(.textAppended(word))
        }
        #expect(await recorder.checkpointCount == 3)
        #expect(try await storedText(store, chat.id) == ("One two three", .streaming))
    }

    @Test func aStoreErrorReachesTheCaller() async throws {
        let store = try SQLiteConversationStore.inMemory()
        let recorder = AnswerRecorder(store: store, answerID: "a", clock: ManualClock())
        await #expect(throws: ConversationStoreError.notFound("no-such-chat")) {
            try await recorder.begin(in: "no-such-chat", query: "q")
        }
    }
}

/// Polls a condition, yielding between tries, for work another task finishes (no sleeping).
func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
    for _ in 0..<100_000 {
        if await condition() { return }
        await Task.yield()
    }
    Issue.record("condition never became true")
}
