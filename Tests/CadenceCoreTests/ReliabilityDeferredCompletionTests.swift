import CadenceCore
import Testing

@Suite("Reliability: deferred completion")
struct ReliabilityDeferredCompletionTests {
    @Test("start asks for a new connection, once")
    func startConnects() {
        var machine = AnswerStreamMachine(random: SplitMix64(seed: 1))
        #expect(machine.start(now: .zero) == [.connect(resume: nil)])
        #expect(machine.start(now: .seconds(1)) == [])
        #expect(machine.connected(answerID: "a1", now: .milliseconds(30)) == [])
        #expect(machine.resumeCursor == ResumeCursor(answerID: "a1", lastSequence: 0))
    }

    @Test("complete is stored, not acted on; a clean close then completes")
    func completeIsDeferredUntilClose() {
        var machine = streamingMachine()
        #expect(machine.received(tokenEvent("Hello", 1), now: .seconds(1)) == [.emit(.textAppended("Hello"))])
        #expect(machine.received(completeEvent(2, followUps: ["Why?"]), now: .seconds(2)) == [])
        #expect(!machine.isFinished)
        #expect(machine.storedCompletion?.followUps == ["Why?"])

        let expected = AnswerCompletion(reason: .completed, text: "Hello", followUps: ["Why?"])
        #expect(machine.connectionClosed(now: .seconds(3)) == [.emit(.completed(expected))])
        #expect(machine.isFinished)
    }

    @Test("tokens after complete are still appended and included in the completion")
    func tokensAfterComplete() {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(completeEvent(2), now: .seconds(2))
        #expect(machine.received(tokenEvent("B", 3), now: .seconds(2)) == [.emit(.textAppended("B"))])
        let actions = machine.connectionClosed(now: .seconds(3))
        #expect(actions.updates.first?.completion?.text == "AB")
        #expect(actions.updates.first?.completion?.reason == .completed)
    }

    @Test("the idle timeout after complete completes the answer, and closes the connection")
    func idleAfterComplete() {
        var machine = streamingMachine(onlyTimeouts(idle: .seconds(120), byteIdle: .seconds(45)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(completeEvent(2), now: .seconds(10))
        // Keepalives keep the connection alive, but do not count as content.
        for second in stride(from: 25, through: 115, by: 15) {
            #expect(machine.keepAliveReceived(now: .seconds(second)) == [])
        }
        #expect(machine.nextDeadline == .seconds(130))
        #expect(machine.deadlinePassed(now: .seconds(129)) == [])
        let expected = AnswerCompletion(reason: .completed, text: "A")
        #expect(machine.deadlinePassed(now: .seconds(130)) == [.closeConnection, .emit(.completed(expected))])
    }

    @Test("a close with no complete before it is not a completion")
    func closeWithoutCompleteIsNotCompletion() {
        var machine = streamingMachine(answerID: nil)
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let updates = machine.connectionClosed(now: .seconds(2)).updates
        #expect(updates.count == 1)
        #expect(updates.first?.failure?.code == .interrupted)
        #expect(updates.first?.failure?.partialText == "A")
    }

    @Test("a drop after complete with no way to resume completes with the stored completion")
    func dropAfterCompleteWithoutCursor() {
        var machine = streamingMachine(answerID: nil)
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(completeEvent(2), now: .seconds(2))
        let actions = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: .seconds(3))
        #expect(actions == [.emit(.completed(AnswerCompletion(reason: .completed, text: "A")))])
    }

    @Test("a drop after complete resumes when it can, to pick up tokens that follow complete")
    func dropAfterCompleteResumes() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(completeEvent(2), now: .seconds(2))
        try machine.expectDropResumes(at: .seconds(3), after: 2)
        #expect(machine.connected(answerID: "a1", now: .seconds(4)) == [.emit(.reconnected)])
        #expect(machine.received(tokenEvent("B", 3), now: .seconds(4)) == [.emit(.textAppended("B"))])
        #expect(machine.connectionClosed(now: .seconds(4)).updates.first?.completion?.text == "AB")
    }
}
