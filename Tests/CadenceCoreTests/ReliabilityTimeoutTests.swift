import CadenceCore
import Testing

@Suite("Reliability: timeouts")
struct ReliabilityTimeoutTests {
    @Test("idle timeout runs on content: keepalives do not reset it (no cursor, so no resume first)")
    func keepalivesDoNotResetIdle() {
        var machine = streamingMachine(onlyTimeouts(idle: .seconds(120), byteIdle: .seconds(45)), answerID: nil)
        _ = machine.received(tokenEvent("Partial", 1), now: .seconds(1))
        for second in stride(from: 15, through: 120, by: 15) {
            #expect(machine.keepAliveReceived(now: .seconds(second)) == [])
        }
        #expect(machine.nextDeadline == .seconds(121))
        let expected = AnswerCompletion(reason: .timedOut, timeout: .idle, text: "Partial")
        #expect(machine.deadlinePassed(now: .seconds(121)) == [.closeConnection, .emit(.completed(expected))])
    }

    @Test("content resets the idle timeout")
    func contentResetsIdle() {
        var machine = streamingMachine(onlyTimeouts(idle: .seconds(120)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(stageEvent(2), now: .seconds(100))
        #expect(machine.nextDeadline == .seconds(220))
        #expect(machine.deadlinePassed(now: .seconds(121)) == [])
    }

    @Test("byte-idle runs on any byte: keepalives reset it")
    func keepalivesResetByteIdle() {
        var machine = streamingMachine(onlyTimeouts(idle: .seconds(120), byteIdle: .seconds(45)))
        #expect(machine.nextDeadline == .seconds(45))
        _ = machine.keepAliveReceived(now: .seconds(30))
        #expect(machine.nextDeadline == .seconds(75))
        _ = machine.bytesReceived(now: .seconds(60))
        #expect(machine.nextDeadline == .seconds(105))
    }

    @Test("byte-idle with text and no way to resume ends as a timeout with the partial text")
    func byteIdleWithoutCursor() {
        var machine = streamingMachine(onlyTimeouts(byteIdle: .seconds(45)), answerID: nil)
        _ = machine.received(tokenEvent("Half", 1), now: .seconds(5))
        #expect(machine.deadlinePassed(now: .seconds(49)) == [])
        let expected = AnswerCompletion(reason: .timedOut, timeout: .byteIdle, text: "Half")
        #expect(machine.deadlinePassed(now: .seconds(50)) == [.closeConnection, .emit(.completed(expected))])
    }

    @Test("first-token timeout: stage events do not stop it, and with no text the answer fails")
    func firstTokenTimeout() throws {
        var machine = streamingMachine(onlyTimeouts(idle: .seconds(120), firstToken: .seconds(60)))
        for (index, second) in stride(from: 10, through: 50, by: 10).enumerated() {
            _ = machine.received(stageEvent(index + 1), now: .seconds(second))
        }
        #expect(machine.nextDeadline == .seconds(60))
        let actions = machine.deadlinePassed(now: .seconds(60))
        #expect(actions.first == .closeConnection)
        let failure = try #require(actions.updates.first?.failure)
        #expect(failure.code == .timedOut)
        #expect(failure.timeout == .firstToken)
        #expect(failure.partialText == "")
        #expect(
            failure.message
                == "No answer arrived: the server sent no text within 60 s (first-token timeout). Please try again.")
    }

    @Test("the first token stops the first-token timeout")
    func firstTokenStops() {
        var machine = streamingMachine(onlyTimeouts(firstToken: .seconds(60), overall: .seconds(360)))
        #expect(machine.nextDeadline == .seconds(60))
        _ = machine.received(tokenEvent("x", 1), now: .seconds(59))
        #expect(machine.nextDeadline == .seconds(360))
    }

    @Test("the overall timeout is never reset, however busy the stream")
    func overallNeverReset() {
        var machine = streamingMachine(.init())
        var expectedText = ""
        for second in stride(from: 10, to: 360, by: 10) {
            _ = machine.received(tokenEvent("t\(second) ", second), now: .seconds(second))
            expectedText += "t\(second) "
        }
        #expect(machine.nextDeadline == .seconds(360))
        let expected = AnswerCompletion(reason: .timedOut, timeout: .overall, text: expectedText)
        #expect(machine.deadlinePassed(now: .seconds(360)) == [.closeConnection, .emit(.completed(expected))])
    }

    @Test(
        "with no text every timeout fails with a message naming it and its length",
        arguments: [
            (
                AnswerTimeout.idle,
                "No answer arrived: the server sent nothing new for 2 s (idle timeout). Please try again."
            ),
            (
                .byteIdle,
                "No answer arrived: the connection was silent for 2 s and could not be resumed. Please try again."
            ),
            (
                .firstToken,
                "No answer arrived: the server sent no text within 2 s (first-token timeout). Please try again."
            ),
            (.overall, "No answer arrived within 2 s (overall timeout). Please try again."),
        ])
    func emptyAnswerMessages(timeout: AnswerTimeout, message: String) throws {
        var configuration = onlyTimeouts(maxAttempts: 1)
        switch timeout {
        case .idle: configuration.idleTimeout = .seconds(2)
        case .byteIdle: configuration.byteIdleTimeout = .seconds(2)
        case .firstToken: configuration.firstTokenTimeout = .seconds(2)
        case .overall: configuration.overallTimeout = .seconds(2)
        }
        var machine = streamingMachine(configuration, answerID: nil)
        #expect(machine.nextDeadline == .seconds(2))
        let actions = machine.deadlinePassed(now: .seconds(2))
        #expect(actions.first == .closeConnection)
        let failure = try #require(actions.updates.first?.failure)
        #expect(failure.timeout == timeout)
        #expect(failure.message == message)
    }

    @Test("a timeout due when an event arrives wins: the late event is not applied")
    func lateEventLosesToTimeout() {
        var machine = streamingMachine(onlyTimeouts(overall: .seconds(360)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let expected = AnswerCompletion(reason: .timedOut, timeout: .overall, text: "A")
        #expect(
            machine.received(tokenEvent("B", 2), now: .seconds(361)) == [.closeConnection, .emit(.completed(expected))])
        #expect(machine.text == "A")
    }

    @Test("the earliest due timeout wins when the driver is late")
    func earliestDueWins() throws {
        var machine = streamingMachine(onlyTimeouts(idle: .seconds(120), overall: .seconds(360)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let completion = try #require(machine.deadlinePassed(now: .seconds(400)).updates.first?.completion)
        #expect(completion.timeout == .idle)
    }

    @Test("a timeout during a retry wait ends the answer without closing anything")
    func timeoutWhileWaiting() {
        var machine = streamingMachine(onlyTimeouts(overall: .seconds(20)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let failure = ConnectionFailure.status(503, message: "busy", retryAfter: .seconds(30))
        #expect(
            machine.connectionFailed(failure, now: .seconds(10)) == [
                .emit(.reconnecting(attempt: 2, after: .seconds(30)))
            ])
        #expect(machine.nextDeadline == .seconds(20))
        let expected = AnswerCompletion(reason: .timedOut, timeout: .overall, text: "A")
        #expect(machine.deadlinePassed(now: .seconds(20)) == [.emit(.completed(expected))])
    }
}
