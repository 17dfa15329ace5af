import CadenceCore
import Testing

@Suite("Reliability: cancellation and the single terminal update")
struct ReliabilityCancellationTests {
    @Test("cancel closes the connection and emits cancelled with the partial text")
    func cancelMidStream() {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("Par", 1), now: .seconds(1))
        _ = machine.received(tokenEvent("tial", 2), now: .seconds(1))
        #expect(machine.cancel(now: .seconds(2)) == [.closeConnection, .emit(.cancelled(partialText: "Partial"))])
        #expect(machine.received(tokenEvent("late", 3), now: .seconds(2)) == [])
        #expect(machine.text == "Partial")
        #expect(machine.nextDeadline == nil)
    }

    @Test("cancel during a retry wait has no connection to close")
    func cancelWhileWaiting() {
        var machine = streamingMachine()
        _ = machine.connectionFailed(.transport("reset", beforeFirstByte: true), now: .seconds(1))
        #expect(machine.cancel(now: .seconds(1)) == [.emit(.cancelled(partialText: ""))])
        #expect(machine.deadlinePassed(now: .seconds(60)) == [])
    }

    /// Ways to end an answer.
    enum Ending: CaseIterable {
        case completed, failed, cancelled, timedOut, serverError
    }

    /// A machine that ended in `ending`, and the one terminal update it emitted.
    func ended(_ ending: Ending) -> (AnswerStreamMachine, [AnswerUpdate]) {
        var machine = streamingMachine(onlyTimeouts(overall: .seconds(100)), answerID: nil)
        var updates = machine.received(tokenEvent("A", 1), now: .seconds(1)).updates
        switch ending {
        case .completed:
            updates += machine.received(completeEvent(2), now: .seconds(1)).updates
            updates += machine.connectionClosed(now: .seconds(2)).updates
        case .failed:
            updates += machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: .seconds(2)).updates
        case .cancelled: updates += machine.cancel(now: .seconds(2)).updates
        case .timedOut: updates += machine.deadlinePassed(now: .seconds(100)).updates
        case .serverError:
            let error = ResearchEvent(sequence: 2, kind: .error(code: "engine_failed", message: "The engine crashed."))
            updates += machine.received(error, now: .seconds(2)).updates
        }
        return (machine, updates)
    }

    @Test("exactly one terminal update, and no method emits anything after it", arguments: Ending.allCases)
    func nothingAfterTerminal(ending: Ending) {
        var (machine, updates) = ended(ending)
        #expect(updates.filter(\.isTerminal).count == 1)
        #expect(updates.last?.isTerminal == true)
        #expect(machine.isFinished)
        let terminal = machine.terminalUpdate
        let later = Duration.seconds(500)
        var after: [AnswerStreamMachine.Action] = []
        after += machine.start(now: later)
        after += machine.connected(answerID: "a2", now: later)
        after += machine.received(tokenEvent("late", 3), now: later)
        after += machine.received(completeEvent(4), now: later)
        after += machine.received(ResearchEvent(sequence: 5, kind: .error(code: "x", message: "y")), now: later)
        after += machine.keepAliveReceived(now: later)
        after += machine.bytesReceived(now: later)
        after += machine.connectionClosed(now: later)
        after += machine.connectionFailed(.status(503, message: "busy"), now: later)
        after += machine.deadlinePassed(now: later)
        after += machine.cancel(now: later)
        #expect(after == [])
        #expect(machine.terminalUpdate == terminal)
        #expect(machine.nextDeadline == nil)
        #expect(machine.text == "A")
    }

    @Test("a server error event fails with the partial text and closes the connection")
    func serverError() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("Some", 1), now: .seconds(1))
        let error = ResearchEvent(sequence: 2, kind: .error(code: "engine_failed", message: "The engine crashed."))
        let actions = machine.received(error, now: .seconds(2))
        #expect(actions.first == .closeConnection)
        let failure = try #require(actions.updates.first?.failure)
        #expect(failure.code == .server)
        #expect(failure.serverCode == "engine_failed")
        #expect(failure.message == "The engine crashed.")
        #expect(failure.partialText == "Some")
    }

    @Test("events before start and after a cancel before start are ignored")
    func beforeStart() {
        var machine = AnswerStreamMachine(random: SplitMix64(seed: 1))
        #expect(machine.received(tokenEvent("x", 1), now: .zero) == [])
        #expect(machine.connectionClosed(now: .zero) == [])
        #expect(machine.nextDeadline == nil)
        #expect(machine.cancel(now: .zero) == [.emit(.cancelled(partialText: ""))])
        #expect(machine.start(now: .zero) == [])
    }
}
