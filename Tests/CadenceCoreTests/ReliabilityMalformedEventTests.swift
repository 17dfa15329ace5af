import CadenceCore
import Testing

/// A malformed event mid-stream resumes from the last good event, once per place; only the same
/// place failing again ends the answer, with its text kept (issue 33, finding 10).
@Suite("Reliability: malformed events")
struct ReliabilityMalformedEventTests {
    static let malformed = ConnectionFailure(
        message: "event \"token\": \"content\" must be a string; found 7", retryable: false, beforeFirstByte: false,
        malformedEvent: true)

    @Test("a malformed event resumes after the last event applied, and the answer completes")
    func aMalformedEventResumes() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("AB", 1), now: .seconds(1))
        let actions = machine.connectionFailed(Self.malformed, now: .seconds(2))
        let delay = try #require(actions.updates.first?.reconnectDelay)
        #expect(machine.deadlinePassed(now: .seconds(2) + delay) == [.connect(resume: ResumeCursor(answerID: "a1", lastSequence: 1))])
        #expect(machine.connected(answerID: "a1", now: .seconds(3)) == [.emit(.reconnected)])
        _ = machine.received(tokenEvent("CD", 2), now: .seconds(3))
        _ = machine.received(completeEvent(3), now: .seconds(3))
        #expect(machine.connectionClosed(now: .seconds(4)).updates.first?.completion?.text == "ABCD")
    }

    @Test("the same place malformed again after the resume ends the answer, text kept")
    func aRepeatEndsTheAnswer() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("AB", 1), now: .seconds(1))
        let first = machine.connectionFailed(Self.malformed, now: .seconds(2))
        let delay = try #require(first.updates.first?.reconnectDelay)
        _ = machine.deadlinePassed(now: .seconds(2) + delay)
        _ = machine.connected(answerID: "a1", now: .seconds(3))
        let again = machine.connectionFailed(Self.malformed, now: .seconds(3))
        let failure = try #require(again.updates.first?.failure)
        #expect(failure.code == .interrupted)
        #expect(failure.partialText == "AB")
        #expect(failure.message.contains("after sequence 1 again"))
        #expect(machine.isFinished)
    }

    @Test("a malformed event further on, after progress, gets its own resume")
    func progressMeansANewPlace() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("AB", 1), now: .seconds(1))
        let first = machine.connectionFailed(Self.malformed, now: .seconds(2))
        _ = machine.deadlinePassed(now: .seconds(2) + (try #require(first.updates.first?.reconnectDelay)))
        _ = machine.connected(answerID: "a1", now: .seconds(3))
        _ = machine.received(tokenEvent("CD", 2), now: .seconds(3))
        let second = machine.connectionFailed(Self.malformed, now: .seconds(4))
        let delay = try #require(second.updates.first?.reconnectDelay)
        #expect(machine.deadlinePassed(now: .seconds(4) + delay) == [.connect(resume: ResumeCursor(answerID: "a1", lastSequence: 2))])
    }
}
