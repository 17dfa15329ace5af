import CadenceCore
import CadenceTesting
import Testing

@testable import CadenceUI

/// A chat keeps a task per answer only while it runs: a long session does not collect one finished
/// task per answer until someone calls ``ChatViewModel/pendingWrites()``.
@MainActor
@Suite struct ChatViewModelWritersTests {
    let clock = ManualClock.stepping()
    let script = ScriptedAnswers()

    @Test func finishedAnswersLeaveNoTaskBehind() async {
        let chat = ChatViewModel(clock: clock, open: script.source)
        for index in 0..<3 {
            let answer = chat.send("question \(index)")
            script.push(.completed(AnswerCompletion(reason: .completed, text: "answer \(index)")), into: index)
            await settle { answer.ending != nil }
        }
        await settle { chat.writers.isEmpty }
        #expect(chat.writers.isEmpty)
        #expect(!chat.isStreaming)
        // The streams were let go too: the chat stopped reading each once its answer ended.
        #expect((0..<3).allSatisfy(script.isEnded))
    }

    @Test func aRunningAnswerStaysUntilItEndsThoughItsSourceStaysOpen() async {
        let chat = ChatViewModel(clock: clock, open: script.source)
        let answer = chat.send("question")
        script.push(.textAppended("partial "), into: 0)
        await settle { !answer.text.isEmpty }
        #expect(chat.writers.count == 1)
        script.push(.completed(AnswerCompletion(reason: .completed, text: "partial answer")), into: 0)
        // pendingWrites() returns once the answer has ended, though its source never finishes.
        var waited = false
        Task { @MainActor in
            await chat.pendingWrites()
            waited = true
        }
        await settle { waited }
        #expect(waited)
        #expect(chat.writers.isEmpty)
        #expect(answer.text == "partial answer")
    }
}
