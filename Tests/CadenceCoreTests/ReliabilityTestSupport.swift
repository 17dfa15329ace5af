import CadenceCore
import Testing

/// A token event.
func tokenEvent(_ text: String, _ sequence: Int?) -> ResearchEvent {
    ResearchEvent(sequence: sequence, kind: .token(text))
}

/// A research stage event.
func stageEvent(_ sequence: Int, _ source: String = "corpus") -> ResearchEvent {
    ResearchEvent(sequence: sequence, kind: .searching(source: source))
}

func completeEvent(_ sequence: Int, sources: [Source] = [], followUps: [String] = []) -> ResearchEvent {
    ResearchEvent(sequence: sequence, kind: .complete(Completion(sources: sources, followUps: followUps)))
}

func citedSource(_ id: String, _ url: String) -> Source {
    Source(id: id, title: "Source \(id)", url: url)
}

/// A configuration with only the timeouts a test names, so other deadlines never interfere.
func onlyTimeouts(
    idle: Duration? = nil, byteIdle: Duration? = nil, firstToken: Duration? = nil, overall: Duration? = nil,
    maxAttempts: Int = 3
) -> ReliabilityConfiguration {
    ReliabilityConfiguration(
        idleTimeout: idle, byteIdleTimeout: byteIdle, firstTokenTimeout: firstToken, overallTimeout: overall,
        maxAttempts: maxAttempts)
}

/// A machine that has started at 0 s and is connected (with answer id `answerID`, so it can resume).
func streamingMachine(
    _ configuration: ReliabilityConfiguration = .init(), answerID: String? = "a1", seed: UInt64 = 1
) -> AnswerStreamMachine {
    var machine = AnswerStreamMachine(configuration: configuration, random: SplitMix64(seed: seed))
    _ = machine.start(now: .zero)
    _ = machine.connected(answerID: answerID, now: .zero)
    return machine
}

extension AnswerStreamMachine {
    /// The connection breaks mid-answer at `now` (by `failure`, a reset unless given): checks that
    /// the machine waits, and that once the delay it announced has passed it connects again, resuming
    /// answer `a1` after `lastSequence`. Returns the actions of the break.
    @discardableResult
    mutating func expectDropResumes(
        at now: Duration, after lastSequence: Int,
        failure: ConnectionFailure = .transport("reset", beforeFirstByte: false),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Action] {
        let actions = connectionFailed(failure, now: now)
        let delay = try #require(actions.updates.first?.reconnectDelay, sourceLocation: sourceLocation)
        #expect(
            deadlinePassed(now: now + delay) == [
                .connect(resume: ResumeCursor(answerID: "a1", lastSequence: lastSequence))
            ],
            sourceLocation: sourceLocation)
        return actions
    }
}

extension Array where Element == AnswerStreamMachine.Action {
    /// The updates among the actions, in order.
    var updates: [AnswerUpdate] {
        compactMap { action in
            if case .emit(let update) = action { return update }
            return nil
        }
    }
}

extension AnswerUpdate {
    var completion: AnswerCompletion? {
        if case .completed(let completion) = self { return completion }
        return nil
    }

    var failure: AnswerFailure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    var reconnectDelay: Duration? {
        if case .reconnecting(_, let delay) = self { return delay }
        return nil
    }
}
