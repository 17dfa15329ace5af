import CadenceCore
import CadenceStore
import CadenceTesting
import CadenceUI
import Foundation
import Testing

/// A chat model's reasoning, refusal and tool calls in the view models: shown apart from the text,
/// timed on the injected clock, and kept in the history.
@MainActor
@Suite struct AnswerViewModelModelOutputTests {
    let call = ToolCall(id: "call_1", name: "lookup", arguments: #"{"q":"sse"}"#)

    @Test func reasoningIsTimedFromItsFirstPieceToTheFirstText() {
        let answer = AnswerViewModel(id: "a", query: "Hi?")
        let before = answer.version
        answer.apply(.reasoningAppended("The user "), at: .seconds(1))
        #expect(answer.version != before, "reasoning shows at once, unpaced")
        answer.apply(.reasoningAppended("greets me."), at: .seconds(2))
        #expect(answer.reasoning == "The user greets me.")
        #expect(answer.reasoningSpan.isOpen)
        answer.apply(.textAppended("Hello!"), at: .milliseconds(5_200))
        #expect(!answer.reasoningSpan.isOpen)
        #expect(answer.reasoningSpan.duration == .milliseconds(4_200))
        #expect(answer.reasoningSpan.summary == "thought for 4 s")
        answer.apply(.reasoningAppended(" More."), at: .seconds(6))
        #expect(answer.reasoningSpan.duration == .milliseconds(4_200), "the span closed once")
    }

    @Test func updatesWithoutATimeAreTimedAtTheNextFrame() {
        let answer = AnswerViewModel(id: "a", query: "Hi?")
        answer.apply(.reasoningAppended("Hmm"))
        #expect(answer.needsFrames)
        answer.frame(now: .seconds(3))
        #expect(answer.reasoningSpan.start == .seconds(3))
        answer.apply(.toolCallReceived(call))
        answer.frame(now: .seconds(5))
        #expect(answer.reasoningSpan.duration == .seconds(2))
    }

    @Test func refusalAndToolCallsStayApartFromTheText() {
        let answer = AnswerViewModel(id: "a", query: "Hi?")
        answer.apply(.toolCallReceived(call), at: .seconds(1))
        answer.apply(.refusalAppended("I can't "), at: .seconds(1))
        answer.apply(.refusalAppended("help with that."), at: .seconds(1))
        answer.apply(
            .completed(
                AnswerCompletion(
                    reason: .completed, text: "", refusal: "I can't help with that.", toolCalls: [call])),
            at: .seconds(2))
        #expect(answer.text == "")
        #expect(answer.refusal == "I can't help with that.")
        #expect(answer.toolCalls == [call], "the completion's calls do not double the streamed ones")
        #expect(answer.reasoningSpan == ReasoningSpan(), "no reasoning, no span")
    }

    @Test func aFailureFromHistoryKeepsItsReasoning() {
        var failure = AnswerFailure(.server, message: "model_error", partialText: "Part")
        failure.reasoning = "Thinking"
        let answer = AnswerViewModel(id: "a", query: "q", restoring: .failed(failure))
        #expect(answer.reasoning == "Thinking")
        #expect(answer.reasoningSpan.summary == "thought", "an ending alone carries no times")
    }

    @Test("an answer read back from history folds its reasoning with the time it took")
    func restoredReasoningKeepsItsTime() {
        let stored = StoredAnswer(
            id: "a", conversationID: "c", position: 0, query: "q", text: "Blue.", state: .completed,
            reasoning: "Rayleigh scattering.", reasoningTime: .milliseconds(4_200), createdAt: Date(), updatedAt: Date())
        let answer = AnswerViewModel(restoring: stored)
        #expect(answer.reasoning == "Rayleigh scattering.")
        #expect(answer.reasoningSpan.summary == "thought for 4 s")
        #expect(!answer.reasoningSpan.isOpen)
    }

    /// The chat records its answers in a real SQLite file; a conversation opened again from that
    /// file shows the reasoning, refusal and tool calls as they streamed.
    @Test func theConversationKeepsThemInHistory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chatui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("conversations.sqlite").path
        let store = try SQLiteConversationStore(path: path)
        let conversation = try await store.createConversation()
        let script = ScriptedAnswers()
        let chat = ChatViewModel(
            clock: ManualClock.stepping(), restoring: Conversation(summary: conversation, answers: []), store: store,
            open: script.source)
        let answer = chat.send("Why is the sky blue?")
        script.push(
            .reasoningAppended("Rayleigh scattering."), .textAppended("Short wavelengths scatter more."),
            .toolCallReceived(call),
            .completed(
                AnswerCompletion(
                    reason: .completed, text: "Short wavelengths scatter more.", reasoning: "Rayleigh scattering.",
                    toolCalls: [call])))
        await settle { answer.ending != nil }
        await chat.pendingWrites()

        let reopened = try #require(try await SQLiteConversationStore(path: path).conversation(conversation.id))
        let stored = try #require(reopened.answers.first)
        #expect(stored.reasoning == "Rayleigh scattering.")
        #expect(stored.toolCalls == [call])
        let restored = ChatViewModel(
            clock: ManualClock.stepping(), restoring: reopened, store: store, open: script.source)
        let shown = try #require(restored.answers.first)
        #expect(shown.reasoning == "Rayleigh scattering.")
        #expect(shown.toolCalls == [call])
        #expect(shown.text == "Short wavelengths scatter more.")
        #expect(restored.answers.count == 1)
    }
}
