import CadenceCore
import Testing

/// How an answer ended, read from its terminal update and given back as one.
@Suite("AnswerEnding")
struct AnswerEndingTests {
    static let timedOut = AnswerCompletion(reason: .timedOut, timeout: .overall, text: "Half")
    static let failure = AnswerFailure(.server, message: "model failed", partialText: "Hal", serverCode: "model_failed")

    @Test(arguments: [
        AnswerUpdate.completed(AnswerCompletion(reason: .completed, text: "Whole")), .completed(timedOut),
        .failed(failure), .cancelled(partialText: "Ha"),
    ])
    func aTerminalUpdateIsAnEndingAndGivesItBack(update: AnswerUpdate) throws {
        let ending = try #require(AnswerEnding(update))
        #expect(ending.update == update)
    }

    @Test func otherUpdatesAreNoEnding() {
        let updates: [AnswerUpdate] = [
            .textAppended("a"), .reasoningAppended("b"), .refusalAppended("c"), .sourcesMerged([]),
            .stageChanged(.searching(source: "web")), .reconnecting(attempt: 2, after: .seconds(1)), .reconnected,
        ]
        #expect(updates.allSatisfy { AnswerEnding($0) == nil })
    }

    @Test func anInterruptionIsDeliveredAsACancellationWithItsText() {
        let ending = AnswerEnding.interrupted(partialText: "Half an ans")
        #expect(ending.update == .cancelled(partialText: "Half an ans"))
        #expect(ending.text == "Half an ans")
        #expect(!ending.isComplete && !ending.isTimedOut)
    }

    @Test func aTimeoutIsACompletionThatIsNotComplete() {
        let ending = AnswerEnding.completed(Self.timedOut)
        #expect(ending.isTimedOut && !ending.isComplete)
        #expect(AnswerEnding.completed(AnswerCompletion(reason: .completed, text: "")).isComplete)
        #expect(!AnswerEnding.failed(Self.failure).isComplete && !AnswerEnding.failed(Self.failure).isTimedOut)
    }

    @Test func textAndModelOutputComeFromWhatTheEndingCarries() {
        var failure = Self.failure
        failure.reasoning = "thinking"
        let ending = AnswerEnding.failed(failure)
        #expect(ending.text == "Hal")
        #expect(ending.modelOutput.reasoning == "thinking")
        #expect(AnswerEnding.cancelled(partialText: "x").modelOutput.reasoning.isEmpty)
    }
}
