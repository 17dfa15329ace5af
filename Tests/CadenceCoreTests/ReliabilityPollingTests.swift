import CadenceCore
import Testing

@Suite("Reliability: the polling preset (seed 003)")
struct ReliabilityPollingTests {
    @Test("one 30 s safety timeout and nothing else")
    func preset() {
        let polling = ReliabilityConfiguration.polling
        #expect(polling.overallTimeout == .seconds(30))
        #expect(polling.idleTimeout == nil)
        #expect(polling.byteIdleTimeout == nil)
        #expect(polling.firstTokenTimeout == nil)
    }

    @Test("chunks never reset the safety timeout; partial content is kept when it fires")
    func chunksDoNotReset() {
        var machine = streamingMachine(.polling, answerID: "m1")
        var text = ""
        for (sequence, second) in zip(1..., stride(from: 2, through: 28, by: 2)) {
            _ = machine.received(tokenEvent("w\(sequence) ", sequence), now: .seconds(second))
            text += "w\(sequence) "
            #expect(machine.nextDeadline == .seconds(30))
        }
        let expected = AnswerCompletion(reason: .timedOut, timeout: .overall, text: text)
        #expect(machine.deadlinePassed(now: .seconds(30)) == [.closeConnection, .emit(.completed(expected))])
    }

    @Test("an empty answer at the safety timeout fails with the seed's words")
    func emptyAnswer() throws {
        var machine = streamingMachine(.polling, answerID: "m1")
        for second in stride(from: 2, through: 28, by: 2) {
            _ = machine.keepAliveReceived(now: .seconds(second))  // an empty poll
        }
        let failure = try #require(machine.deadlinePassed(now: .seconds(30)).updates.first?.failure)
        #expect(failure.message == "I'm having trouble responding right now. Please try again.")
        #expect(failure.code == .timedOut)
    }

    @Test("a completed message before the safety timeout completes normally")
    func completesInTime() {
        var machine = streamingMachine(.polling, answerID: "m1")
        _ = machine.received(tokenEvent("Hello", 1), now: .seconds(2))
        _ = machine.received(completeEvent(2), now: .seconds(4))
        #expect(
            machine.connectionClosed(now: .seconds(4)) == [
                .emit(.completed(AnswerCompletion(reason: .completed, text: "Hello")))
            ])
    }
}
