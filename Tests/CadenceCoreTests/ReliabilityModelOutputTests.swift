import CadenceCore
import Testing

/// A chat model's output besides its text (reasoning, a refusal, tool calls) goes through the same
/// machine as tokens: applied once, in order, kept to the end, and never doubled by a resume.
@Suite("Reliability: reasoning, refusals and tool calls")
struct ReliabilityModelOutputTests {
    let call = ToolCall(id: "call_1", name: "lookup", arguments: #"{"q":"sse"}"#)

    func event(_ kind: ResearchEvent.Kind, _ sequence: Int?) -> ResearchEvent {
        ResearchEvent(sequence: sequence, kind: kind)
    }

    @Test("each event becomes its update, and the completion carries them whole")
    func updatesAndCompletion() {
        var machine = streamingMachine()
        #expect(machine.received(event(.reasoning("The user "), 1), now: .seconds(1)) == [.emit(.reasoningAppended("The user "))])
        #expect(machine.received(event(.reasoning("asks."), 2), now: .seconds(1)) == [.emit(.reasoningAppended("asks."))])
        #expect(machine.received(event(.toolCall(call), 3), now: .seconds(2)) == [.emit(.toolCallReceived(call))])
        #expect(machine.received(event(.refusal("I can't "), 4), now: .seconds(2)) == [.emit(.refusalAppended("I can't "))])
        #expect(machine.received(event(.refusal("help."), 5), now: .seconds(2)) == [.emit(.refusalAppended("help."))])
        #expect(machine.received(event(.reasoning(""), 6), now: .seconds(2)) == [], "an empty piece says nothing")
        _ = machine.received(completeEvent(7), now: .seconds(3))
        let completion = machine.connectionClosed(now: .seconds(3)).updates.first?.completion
        #expect(completion?.reasoning == "The user asks.")
        #expect(completion?.refusal == "I can't help.")
        #expect(completion?.toolCalls == [call])
        #expect(completion?.text == "")
    }

    /// The server replays everything after the cursor it is given; a client that resumed from an
    /// older place (or a server that replays more) must not show reasoning twice.
    @Test("a resume that replays reasoning, refusal and tool calls applies each once")
    func resumeDoesNotDouble() throws {
        var machine = streamingMachine()
        _ = machine.received(event(.reasoning("Think "), 1), now: .seconds(1))
        _ = machine.received(event(.reasoning("hard."), 2), now: .seconds(1))
        _ = machine.received(event(.toolCall(call), 3), now: .seconds(1))
        try machine.expectDropResumes(at: .seconds(2), after: 3)
        #expect(machine.connected(answerID: "a1", now: .seconds(3)) == [.emit(.reconnected)])
        for replay in [event(.reasoning("Think "), 1), event(.reasoning("hard."), 2), event(.toolCall(call), 3)] {
            #expect(machine.received(replay, now: .seconds(3)) == [], "replayed: \(replay)")
        }
        #expect(machine.received(event(.refusal("No."), 4), now: .seconds(3)) == [.emit(.refusalAppended("No."))])
        #expect(machine.received(event(.refusal("No."), 4), now: .seconds(3)) == [])
        #expect(machine.received(tokenEvent("Hi", 5), now: .seconds(3)) == [.emit(.textAppended("Hi"))])
        _ = machine.received(completeEvent(6), now: .seconds(3))
        let completion = try #require(machine.connectionClosed(now: .seconds(4)).updates.first?.completion)
        #expect(completion.reasoning == "Think hard.")
        #expect(completion.toolCalls == [call])
        #expect(completion.refusal == "No.")
        #expect(completion.text == "Hi")
    }

    @Test("reasoning without a sequence number makes a resume unsafe, as text does")
    func unsequencedReasoningBlocksResume() {
        var machine = streamingMachine()
        _ = machine.received(event(.reasoning("a"), 1), now: .seconds(1))
        #expect(machine.resumeCursor?.lastSequence == 1)
        _ = machine.received(event(.reasoning("b"), nil), now: .seconds(1))
        #expect(machine.resumeCursor == nil)
    }

    @Test("a failure keeps the reasoning, refusal and tool calls that arrived before it")
    func failureKeepsModelOutput() throws {
        var machine = streamingMachine()
        _ = machine.received(event(.reasoning("Hmm."), 1), now: .seconds(1))
        _ = machine.received(event(.toolCall(call), 2), now: .seconds(1))
        _ = machine.received(tokenEvent("Part", 3), now: .seconds(1))
        let actions = machine.received(event(.error(code: "model_error", message: "upstream failed"), 4), now: .seconds(2))
        let failure = try #require(actions.updates.last?.failure)
        #expect(failure.partialText == "Part")
        #expect(failure.reasoning == "Hmm.")
        #expect(failure.toolCalls == [call])
    }

    @Test("reasoning meets the first-token deadline: the model has begun")
    func reasoningIsAFirstToken() {
        var machine = streamingMachine(onlyTimeouts(firstToken: .seconds(10)))
        _ = machine.received(event(.reasoning("Thinking for a long time"), 1), now: .seconds(5))
        #expect(machine.deadlinePassed(now: .seconds(11)).updates.isEmpty)
    }

    @Test("a timeout after a refusal completes with it; after reasoning alone it fails, keeping the reasoning")
    func timeoutKeepsModelOutput() throws {
        let configuration = onlyTimeouts(overall: .seconds(10))
        var refused = streamingMachine(configuration)
        _ = refused.received(event(.refusal("No."), 1), now: .seconds(1))
        let completion = try #require(refused.deadlinePassed(now: .seconds(10)).updates.last?.completion)
        #expect(completion.reason == .timedOut && completion.refusal == "No.")

        var reasoned = streamingMachine(configuration)
        _ = reasoned.received(event(.reasoning("Still thinking"), 1), now: .seconds(1))
        let failure = try #require(reasoned.deadlinePassed(now: .seconds(10)).updates.last?.failure)
        #expect(failure.code == .timedOut && failure.reasoning == "Still thinking")
    }

    @Test("JSON lines carry reasoning, refusal and tool calls, and the completion names them")
    func json() {
        #expect(AnswerUpdate.reasoningAppended("r").json == ["type": "reasoning", "text": "r"])
        #expect(AnswerUpdate.refusalAppended("no").json == ["type": "refusal", "text": "no"])
        #expect(
            AnswerUpdate.toolCallReceived(call).json
                == ["type": "tool_call", "tool_call": ["id": "call_1", "name": "lookup", "arguments": #"{"q":"sse"}"#]])
        let completed = AnswerUpdate.completed(
            AnswerCompletion(reason: .completed, text: "t", reasoning: "r", refusal: "no", toolCalls: [call])
        ).json
        #expect(completed["reasoning"] == "r")
        #expect(completed["refusal"] == "no")
        #expect(completed["tool_calls"] == .array([call.json]))
        #expect(AnswerUpdate.completed(AnswerCompletion(reason: .completed, text: "t")).json["reasoning"] == nil)
    }

    @Test("the reasoning span opens at the first reasoning and closes when the answer begins")
    func reasoningSpan() {
        var span = ReasoningSpan()
        let textFirst = span.note(.textAppended("x"), at: .seconds(1))
        #expect(!textFirst, "text without reasoning opens nothing")
        let opened = span.note(.reasoningAppended("a"), at: .seconds(2))
        let openedAgain = span.note(.reasoningAppended("b"), at: .seconds(3))
        #expect(opened && !openedAgain)
        #expect(span.isOpen && span.summary == "thought")
        let closed = span.note(.toolCallReceived(call), at: .milliseconds(5_600))
        let closedAgain = span.note(.textAppended("x"), at: .seconds(9))
        #expect(closed && !closedAgain)
        #expect(span.duration == .milliseconds(3_600))
        #expect(span.summary == "thought for 4 s")
        #expect(ReasoningSpan.summary(.milliseconds(100)) == "thought for 1 s")
    }
}
