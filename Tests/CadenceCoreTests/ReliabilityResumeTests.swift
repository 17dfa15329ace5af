import CadenceCore
import Testing

@Suite("Reliability: resume")
struct ReliabilityResumeTests {
    /// A machine that applied tokens 1…3 ("ABC"), dropped, and is connected again by resume.
    func resumedMachine() throws -> AnswerStreamMachine {
        var machine = streamingMachine()
        for (sequence, letter) in zip(1..., ["A", "B", "C"]) {
            _ = machine.received(tokenEvent(letter, sequence), now: .seconds(1))
        }
        try machine.expectDropResumes(at: .seconds(2), after: 3)
        #expect(machine.connected(answerID: "a1", now: .seconds(3)) == [.emit(.reconnected)])
        return machine
    }

    @Test("replayed events at or below the last applied sequence are dropped")
    func replaysAreDropped() throws {
        var machine = try resumedMachine()
        for sequence in 1...3 {
            #expect(machine.received(tokenEvent("dup", sequence), now: .seconds(3)) == [])
        }
        #expect(machine.received(tokenEvent("D", 4), now: .seconds(3)) == [.emit(.textAppended("D"))])
        #expect(machine.received(tokenEvent("D again", 4), now: .seconds(3)) == [])
        #expect(machine.text == "ABCD")
    }

    @Test("events without a sequence (flush-tokens) pass through")
    func unsequencedEvents() throws {
        var machine = try resumedMachine()
        #expect(machine.received(ResearchEvent(kind: .flushTokens), now: .seconds(3)) == [])
        #expect(machine.received(ResearchEvent(kind: .flushTokens), now: .seconds(3)) == [])
        #expect(machine.received(completeEvent(4), now: .seconds(3)) == [])
        #expect(machine.connectionClosed(now: .seconds(4)).updates.first?.completion?.text == "ABC")
    }

    @Test("an answer the server no longer has fails with the partial text, once", arguments: [404, 410])
    func answerGone(status: Int) throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("AB", 1), now: .seconds(1))
        let drop = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: .seconds(2))
        let delay = try #require(drop.updates.first?.reconnectDelay)
        _ = machine.deadlinePassed(now: .seconds(2) + delay)
        let gone = ConnectionFailure.status(status, message: "HTTP \(status): answer a1 expired")
        let actions = machine.connectionFailed(gone, now: .seconds(3))
        let failure = try #require(actions.updates.first?.failure)
        #expect(actions.count == 1)
        #expect(failure.code == .answerGone)
        #expect(failure.partialText == "AB")
        #expect(failure.status == status)
        #expect(failure.message.hasPrefix("The server no longer has this answer"))
    }

    @Test("a cursor the server refuses as past the answer's end (416) fails at once, typed, with the partial text")
    func cursorRefused() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("AB", 1), now: .seconds(1))
        let drop = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: .seconds(2))
        let delay = try #require(drop.updates.first?.reconnectDelay)
        _ = machine.deadlinePassed(now: .seconds(2) + delay)
        let refused = ConnectionFailure.status(416, message: "the answer a1 has sent 0 events so far")
        let actions = machine.connectionFailed(refused, now: .seconds(3))
        let failure = try #require(actions.updates.first?.failure)
        #expect(actions.count == 1, "no retry: \(actions)")
        #expect(failure.code == .resumeRefused)
        #expect(failure.partialText == "AB")
        #expect(failure.status == 416)
        #expect(failure.message.contains("has sent 0 events"))
    }

    @Test("404 on a new answer is a plain connection failure, not 'gone'")
    func notFoundOnNewAnswer() {
        var machine = AnswerStreamMachine(random: SplitMix64(seed: 1))
        _ = machine.start(now: .zero)
        let actions = machine.connectionFailed(.status(404, message: "HTTP 404 Not Found"), now: .zero)
        #expect(actions.updates.first?.failure?.code == .connection)
    }

    @Test("an answer id with no events yet resumes from the start (after 0)")
    func resumeFromStart() throws {
        var machine = streamingMachine()
        _ = machine.keepAliveReceived(now: .seconds(10))
        try machine.expectDropResumes(at: .seconds(20), after: 0)
    }

    @Test("text without a sequence after the cursor makes resuming unsafe, so a drop fails")
    func unsequencedTextBlocksResume() {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(tokenEvent("B", nil), now: .seconds(1))
        #expect(machine.resumeCursor == nil)
        let actions = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: .seconds(2))
        #expect(actions.updates.first?.failure?.partialText == "AB")
        // A later sequenced event makes the cursor safe again.
        var other = streamingMachine()
        _ = other.received(tokenEvent("B", nil), now: .seconds(1))
        _ = other.received(tokenEvent("C", 2), now: .seconds(1))
        #expect(other.resumeCursor == ResumeCursor(answerID: "a1", lastSequence: 2))
    }

    @Test("stale events from the dropped connection are ignored while waiting to reconnect")
    func staleEventsWhileWaiting() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let drop = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: .seconds(2))
        #expect(drop.updates.first?.reconnectDelay != nil)
        #expect(machine.received(tokenEvent("B", 2), now: .seconds(2)) == [])
        #expect(machine.keepAliveReceived(now: .seconds(2)) == [])
        #expect(machine.connectionClosed(now: .seconds(2)) == [])
        #expect(machine.connected(answerID: "a1", now: .seconds(2)) == [])
        #expect(machine.text == "A")
        #expect(machine.resumeCursor?.lastSequence == 1)
    }

    @Test("a resumed connection keeps the answer id")
    func resumeKeepsAnswerID() throws {
        var machine = try resumedMachine()
        _ = machine.connected(answerID: "other", now: .seconds(3))
        #expect(machine.resumeCursor?.answerID == "a1")
    }

    @Test("events before connected count as connecting (and a reconnect is reported once)")
    func eventBeforeConnected() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let drop = machine.connectionClosed(now: .seconds(2))
        let delay = try #require(drop.updates.first?.reconnectDelay)
        _ = machine.deadlinePassed(now: .seconds(2) + delay)
        #expect(
            machine.received(tokenEvent("B", 2), now: .seconds(3)) == [.emit(.reconnected), .emit(.textAppended("B"))])
        #expect(machine.connected(answerID: "a1", now: .seconds(3)) == [])
    }
}
