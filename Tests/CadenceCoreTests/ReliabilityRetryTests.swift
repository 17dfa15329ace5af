import CadenceCore
import Testing

@Suite("Reliability: retry")
struct ReliabilityRetryTests {
    /// A machine that has started and is waiting for its first connection.
    func connectingMachine(
        _ configuration: ReliabilityConfiguration = onlyTimeouts(), seed: UInt64 = 1
    )
        -> AnswerStreamMachine
    {
        var machine = AnswerStreamMachine(configuration: configuration, random: SplitMix64(seed: seed))
        _ = machine.start(now: .zero)
        return machine
    }

    @Test("a retryable status before the first byte retries with backoff, then reconnects")
    func retryBeforeFirstByte() throws {
        var machine = connectingMachine()
        let actions = machine.connectionFailed(.status(503, message: "HTTP 503"), now: .milliseconds(100))
        #expect(actions.count == 1)
        let delay = try #require(actions.updates.first?.reconnectDelay)
        #expect(actions == [.emit(.reconnecting(attempt: 2, after: delay))])
        // Equal jitter on a 500 ms ceiling: between 250 ms and 500 ms.
        #expect(delay >= .milliseconds(250) && delay <= .milliseconds(500))
        #expect(machine.nextDeadline == .milliseconds(100) + delay)
        #expect(machine.deadlinePassed(now: .milliseconds(100) + delay - .milliseconds(1)) == [])
        #expect(machine.deadlinePassed(now: .milliseconds(100) + delay) == [.connect(resume: nil)])
        #expect(machine.connected(answerID: "a1", now: .seconds(1)) == [.emit(.reconnected)])
        #expect(machine.received(tokenEvent("Hi", 1), now: .seconds(1)) == [.emit(.textAppended("Hi"))])
    }

    @Test(
        "retry-after is honoured, up to its cap",
        arguments: [
            (Duration.seconds(3), Duration.seconds(3)), (.milliseconds(1500), .milliseconds(1500)),
            (.seconds(100), .seconds(30)),
        ])
    func retryAfter(asked: Duration, waited: Duration) {
        var machine = connectingMachine()
        let failure = ConnectionFailure.status(429, message: "slow down", retryAfter: asked)
        #expect(machine.connectionFailed(failure, now: .zero) == [.emit(.reconnecting(attempt: 2, after: waited))])
        #expect(machine.nextDeadline == waited)
    }

    @Test("the backoff ceiling doubles per attempt, up to backoffMax")
    func exponentialBackoff() throws {
        var machine = connectingMachine(onlyTimeouts(maxAttempts: 7))
        var now = Duration.zero
        let ceilings: [Duration] = [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8),
        ]
        for (index, ceiling) in ceilings.enumerated() {
            let actions = machine.connectionFailed(.transport("refused", beforeFirstByte: true), now: now)
            let delay = try #require(actions.updates.first?.reconnectDelay)
            #expect(actions == [.emit(.reconnecting(attempt: index + 2, after: delay))])
            #expect(delay >= ceiling / 2 && delay <= ceiling)
            now += delay
            #expect(machine.deadlinePassed(now: now) == [.connect(resume: nil)])
        }
    }

    @Test("after maxAttempts failures the answer fails, saying how many attempts")
    func attemptsExhausted() throws {
        var machine = connectingMachine()
        var now = Duration.zero
        for _ in 1..<3 {
            let actions = machine.connectionFailed(.status(502, message: "HTTP 502 Bad Gateway"), now: now)
            now += try #require(actions.updates.first?.reconnectDelay)
            _ = machine.deadlinePassed(now: now)
        }
        let actions = machine.connectionFailed(.status(502, message: "HTTP 502 Bad Gateway"), now: now)
        let failure = try #require(actions.updates.first?.failure)
        #expect(actions.count == 1)
        #expect(failure.code == .connection)
        #expect(failure.status == 502)
        #expect(failure.attempts == 3)
        #expect(failure.message == "The answer could not be received after 3 attempts: HTTP 502 Bad Gateway.")
        #expect(machine.connectionCount == 3)
    }

    @Test("statuses that are not retryable fail at once", arguments: [400, 401, 403, 404, 413, 422])
    func notRetryable(status: Int) {
        var machine = connectingMachine()
        let actions = machine.connectionFailed(
            .status(status, message: "the server answered HTTP \(status)"), now: .zero)
        #expect(actions.updates.first?.failure?.code == .connection)
        #expect(actions.updates.first?.failure?.status == status)
        #expect(actions.updates.first?.failure?.message == "The server answered HTTP \(status).")
    }

    @Test("with one attempt allowed, a resumable drop fails as a connection failure, keeping the text")
    func singleAttempt() throws {
        var machine = streamingMachine(onlyTimeouts(maxAttempts: 1))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let actions = machine.connectionFailed(.transport("connection reset", beforeFirstByte: false), now: .seconds(2))
        let failure = try #require(actions.updates.first?.failure)
        #expect(failure.code == .connection)
        #expect(failure.partialText == "A")
        #expect(failure.message == "The answer could not be received after 1 attempt: connection reset.")
    }

    @Test("retryable statuses", arguments: [408, 409, 429, 500, 502, 503, 504, 529])
    func retryableStatuses(status: Int) {
        #expect(ConnectionFailure.isRetryable(status: status))
        var machine = connectingMachine()
        let actions = machine.connectionFailed(.status(status, message: "HTTP \(status)"), now: .zero)
        #expect(actions.updates.first?.reconnectDelay != nil)
    }

    @Test("a drop mid-stream without a resume cursor fails with the partial text, never retries")
    func midStreamDropWithoutCursor() throws {
        var machine = streamingMachine(answerID: nil)
        _ = machine.received(tokenEvent("Half an ", 1), now: .seconds(1))
        _ = machine.received(tokenEvent("answer", 2), now: .seconds(2))
        let actions = machine.connectionFailed(
            .transport("connection reset by peer", beforeFirstByte: false), now: .seconds(3))
        let failure = try #require(actions.updates.first?.failure)
        #expect(actions.count == 1)
        #expect(failure.code == .interrupted)
        #expect(failure.partialText == "Half an answer")
        #expect(
            failure.message
                == "The connection broke mid-answer and the answer cannot be resumed: connection reset by peer.")
    }

    @Test("bytes before the failure forbid a fresh start even if the transport says 'before first byte'")
    func sawBytesForbidsFreshStart() {
        var machine = streamingMachine(answerID: nil)
        _ = machine.keepAliveReceived(now: .seconds(1))
        let actions = machine.connectionFailed(.transport("reset", beforeFirstByte: true), now: .seconds(2))
        #expect(actions.updates.first?.failure?.code == .interrupted)
    }

    @Test("a drop mid-stream with a cursor waits, then resumes after the last sequence")
    func midStreamDropWithCursor() throws {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        _ = machine.received(tokenEvent("B", 2), now: .seconds(1))
        let actions = try machine.expectDropResumes(at: .seconds(2), after: 2)
        let delay = try #require(actions.updates.first?.reconnectDelay)
        #expect(actions == [.emit(.reconnecting(attempt: 2, after: delay))])
    }

    @Test("a clean close before complete is a drop: it resumes when it can")
    func cleanCloseResumes() {
        var machine = streamingMachine()
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let actions = machine.connectionClosed(now: .seconds(2))
        #expect(actions.updates.first?.reconnectDelay != nil)
        #expect(!machine.isFinished)
    }

    @Test("byte-idle closes a silent connection and resumes it")
    func byteIdleResumes() throws {
        var machine = streamingMachine(onlyTimeouts(byteIdle: .seconds(45)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(5))
        let actions = machine.deadlinePassed(now: .seconds(50))
        let delay = try #require(actions.updates.first?.reconnectDelay)
        #expect(actions == [.closeConnection, .emit(.reconnecting(attempt: 2, after: delay))])
    }

    @Test("progress on a new connection starts the attempt count again")
    func progressResetsAttempts() {
        var machine = streamingMachine(onlyTimeouts(maxAttempts: 2))
        var now = Duration.seconds(1)
        for sequence in 1...5 {
            #expect(machine.received(tokenEvent("x", sequence), now: now) == [.emit(.textAppended("x"))])
            let actions = machine.connectionFailed(.transport("reset", beforeFirstByte: false), now: now)
            guard case .reconnecting(let attempt, let delay) = actions.updates.first else {
                Issue.record("expected a reconnect after drop \(sequence), got \(actions)")
                return
            }
            #expect(attempt == 2)
            now += delay
            _ = machine.deadlinePassed(now: now)
            #expect(machine.connected(answerID: "a1", now: now) == [.emit(.reconnected)])
        }
        #expect(machine.text == "xxxxx")
    }

    @Test("the overall timeout bounds backoff waits")
    func overallBoundsBackoff() {
        var machine = streamingMachine(onlyTimeouts(overall: .seconds(360)))
        _ = machine.received(tokenEvent("A", 1), now: .seconds(1))
        let failure = ConnectionFailure.status(503, message: "busy", retryAfter: .seconds(30))
        _ = machine.connectionFailed(failure, now: .seconds(350))
        #expect(machine.nextDeadline == .seconds(360))
        let actions = machine.deadlinePassed(now: .seconds(360))
        #expect(actions.updates.first?.completion?.timeout == .overall)
    }

    @Test("jitter comes from the injected generator: the same seed gives the same delays")
    func deterministicJitter() {
        func delays(seed: UInt64) -> [Duration] {
            var machine = connectingMachine(onlyTimeouts(maxAttempts: 10), seed: seed)
            var now = Duration.zero
            var delays: [Duration] = []
            for _ in 0..<8 {
                guard
                    let delay = machine.connectionFailed(.transport("x", beforeFirstByte: true), now: now)
                        .updates.first?.reconnectDelay
                else { break }
                delays.append(delay)
                now += delay
                _ = machine.deadlinePassed(now: now)
            }
            return delays
        }
        #expect(delays(seed: 7).count == 8)
        #expect(delays(seed: 7) == delays(seed: 7))
        #expect(delays(seed: 7) != delays(seed: 8))
    }
}
