import CadenceCore
import Testing

/// A malformed event mid-stream resumes from the last good event, once per place; only the same
/// place failing again ends the answer, with its text kept (issue 33, finding 10).
@Suite("Reliability: malformed events")
struct ReliabilityMalformedEventTests {
    static let malformed = ConnectionFailure(
        message: "event \"token\": \"content\" must be a string; found 7", retryable: false, beforeFirstByte: false,
        malformedEvent: true)

    /// A machine that applied "AB" (sequence 1), met a malformed event at 2 s, and is connected again
    /// at 3 s by a resume after sequence 1.
    func resumedAfterMalformedEvent() throws -> AnswerStreamMachine {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("AB", 1), now: .seconds(1))
        try machine.expectDropResumes(at: .seconds(2), after: 1, failure: Self.malformed)
        #expect(machine.connected(answerID: "a1", now: .seconds(3)) == [.emit(.reconnected)])
        return machine
    }

    @Test("a malformed event resumes after the last event applied, and the answer completes")
    func aMalformedEventResumes() throws {
        var machine = try resumedAfterMalformedEvent()
        _ = machine.received(tokenEvent("CD", 2), now: .seconds(3))
        _ = machine.received(completeEvent(3), now: .seconds(3))
        #expect(machine.connectionClosed(now: .seconds(4)).updates.first?.completion?.text == "ABCD")
    }

    @Test("the same place malformed again after the resume ends the answer, text kept")
    func aRepeatEndsTheAnswer() throws {
        var machine = try resumedAfterMalformedEvent()
        let again = machine.connectionFailed(Self.malformed, now: .seconds(3))
        let failure = try #require(again.updates.first?.failure)
        #expect(again.count == 1)
        #expect(failure.code == .interrupted)
        #expect(failure.partialText == "AB")
        #expect(failure.message.contains("after sequence 1 again"))
        #expect(machine.isFinished)
    }

    @Test("a malformed event further on, after progress, gets its own resume")
    func progressMeansANewPlace() throws {
        var machine = try resumedAfterMalformedEvent()
        _ = machine.received(tokenEvent("CD", 2), now: .seconds(3))
        try machine.expectDropResumes(at: .seconds(4), after: 2, failure: Self.malformed)
    }
}
