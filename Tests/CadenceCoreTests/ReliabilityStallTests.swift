import CadenceCore
import Testing

/// A connection that stalls mid-answer: silent, or sending only keepalives. The usual cause is a
/// stuck proxy while the server goes on writing, so the stream resumes once before it gives up.
@Suite("Reliability: stalls resume")
struct ReliabilityStallTests {
    /// A machine streaming answer `a1` with two tokens applied at 1 s.
    private func stalledMachine(_ configuration: ReliabilityConfiguration) -> AnswerStreamMachine {
        var machine = streamingMachine(configuration)
        _ = machine.received(tokenEvent("Half ", 1), now: .seconds(1))
        _ = machine.received(tokenEvent("way", 2), now: .seconds(1))
        return machine
    }

    /// Passes the deadline that the idle timeout set, expects a resume from sequence 2, and opens it.
    /// Returns when the resumed connection is open.
    private func expectIdleResume(
        _ machine: inout AnswerStreamMachine, at now: Duration, attempt: Int = 2
    ) throws -> Duration {
        #expect(machine.nextDeadline == now)
        let actions = machine.deadlinePassed(now: now)
        let delay = try #require(actions.updates.first?.reconnectDelay, "expected a resume, got \(actions)")
        #expect(actions == [.closeConnection, .emit(.reconnecting(attempt: attempt, after: delay))])
        let reconnectAt = now + delay
        #expect(machine.deadlinePassed(now: reconnectAt) == [.connect(resume: ResumeCursor(answerID: "a1", lastSequence: 2))])
        #expect(machine.connected(answerID: "a1", now: reconnectAt) == [.emit(.reconnected)])
        return reconnectAt
    }

    @Test("keepalives only past the idle timeout: resume once, and the resumed stream finishes the answer")
    func keepaliveStallResumes() throws {
        var machine = stalledMachine(onlyTimeouts(idle: .seconds(120), byteIdle: .seconds(45)))
        for second in stride(from: 15, through: 120, by: 15) {
            #expect(machine.keepAliveReceived(now: .seconds(second)) == [])
        }
        let resumedAt = try expectIdleResume(&machine, at: .seconds(121))
        #expect(machine.received(tokenEvent(" there", 3), now: resumedAt) == [.emit(.textAppended(" there"))])
        _ = machine.received(completeEvent(4), now: resumedAt)
        let completion = try #require(machine.connectionClosed(now: resumedAt).updates.first?.completion)
        #expect(completion.reason == .completed)
        #expect(completion.text == "Half way there")
    }

    @Test("silence shorter than byte-idle but past the idle timeout also resumes once")
    func silentStallResumes() throws {
        var machine = stalledMachine(onlyTimeouts(idle: .seconds(3), byteIdle: .seconds(45)))
        let resumedAt = try expectIdleResume(&machine, at: .seconds(4))
        _ = machine.received(tokenEvent(" there", 3), now: resumedAt)
        #expect(machine.text == "Half way there")
        #expect(machine.nextDeadline == resumedAt + .seconds(3), "content starts the idle timeout again")
    }

    @Test("when the resumed stream is content-idle too, the answer ends timed out with its partial text")
    func stuckServerTimesOut() throws {
        var machine = stalledMachine(onlyTimeouts(idle: .seconds(120), byteIdle: .seconds(45)))
        for second in stride(from: 15, through: 120, by: 15) { _ = machine.keepAliveReceived(now: .seconds(second)) }
        let resumedAt = try expectIdleResume(&machine, at: .seconds(121))
        // The resumed stream replays nothing new: only an already-applied event and keepalives.
        #expect(machine.received(tokenEvent("way", 2), now: resumedAt + .seconds(1)) == [])
        for second in stride(from: 135, through: 240, by: 15) {
            #expect(machine.keepAliveReceived(now: .seconds(second)) == [])
        }
        #expect(machine.nextDeadline == .seconds(241), "the idle timeout starts again when the resume begins")
        let expected = AnswerCompletion(reason: .timedOut, timeout: .idle, text: "Half way")
        #expect(machine.deadlinePassed(now: .seconds(241)) == [.closeConnection, .emit(.completed(expected))])
    }

    @Test("new content after the resume allows another resume at the next stall")
    func contentRearmsTheResume() throws {
        var machine = stalledMachine(onlyTimeouts(idle: .seconds(10)))
        let resumedAt = try expectIdleResume(&machine, at: .seconds(11))
        _ = machine.received(tokenEvent(" again", 3), now: resumedAt)
        let actions = machine.deadlinePassed(now: resumedAt + .seconds(10))
        #expect(actions.first == .closeConnection)
        #expect(actions.updates.first?.reconnectDelay != nil, "a second stall after progress resumes again: \(actions)")
    }

    @Test(
        "no resume without a cursor, without a retry left, or with the answer already whole",
        arguments: ["no cursor", "no retry", "complete stored"])
    func idleEndsWhenResumeCannotHelp(case name: String) throws {
        var configuration = onlyTimeouts(idle: .seconds(10))
        if name == "no retry" { configuration.maxAttempts = 1 }
        var machine = streamingMachine(configuration, answerID: name == "no cursor" ? nil : "a1")
        _ = machine.received(tokenEvent("Partial", 1), now: .seconds(1))
        if name == "complete stored" { _ = machine.received(completeEvent(2), now: .seconds(1)) }
        let actions = machine.deadlinePassed(now: .seconds(11))
        let completion = try #require(actions.updates.first?.completion, "\(name): \(actions)")
        #expect(actions.first == .closeConnection)
        #expect(completion.reason == (name == "complete stored" ? .completed : .timedOut))
        #expect(completion.text == "Partial")
    }

    @Test("the resume counts as a retry: a failing resumed connection uses up the same budget")
    func resumeIsARetry() throws {
        var machine = stalledMachine(onlyTimeouts(idle: .seconds(10), maxAttempts: 2))
        let resumedAt = try expectIdleResume(&machine, at: .seconds(11))
        #expect(machine.attempt == 2)
        let actions = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: resumedAt)
        let failure = try #require(actions.updates.first?.failure)
        #expect(failure.partialText == "Half way")
        #expect(failure.attempts == 2)
    }
}
