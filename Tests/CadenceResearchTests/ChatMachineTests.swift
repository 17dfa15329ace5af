import CadenceCore
import Testing

@testable import CadenceResearch

/// The chat machine, event by event: what it relays, when tool calls are whole, when it retries.
struct ChatMachineTests {
    static func machine(_ configuration: ChatConfiguration = ChatConfiguration()) -> ChatMachine {
        var machine = ChatMachine(
            request: AnswerRequest(query: "Hi", history: [ChatTurn(role: "assistant", content: "Hello.")]),
            configuration: configuration, model: "m", random: SplitMix64(seed: 7))
        _ = machine.start(now: .zero)
        return machine
    }

    /// The code of the `error` the actions send, if any.
    static func errorCode(_ actions: [ChatMachine.Action]) -> String? {
        for case .emit(.error(let code, _)) in actions { return code }
        return nil
    }

    @Test func sendsTheHistoryThenTheQuestion() {
        var machine = ChatMachine(request: AnswerRequest(query: "Hi", history: [ChatTurn(role: "user", content: "A")]))
        #expect(machine.turns == [ChatTurn(role: "user", content: "A"), ChatTurn(role: "user", content: "Hi")])
        #expect(machine.start(now: .zero) == [.callModel(attempt: 1)])
    }

    @Test func theClientsSystemPromptComesFirst() {
        let request = AnswerRequest(query: "Hi", history: [ChatTurn(role: "user", content: "A")], system: "Be brief.")
        #expect(
            ChatMachine(request: request).turns == [
                ChatTurn(role: "system", content: "Be brief."), ChatTurn(role: "user", content: "A"),
                ChatTurn(role: "user", content: "Hi"),
            ])
    }

    @Test func keepsReasoningRefusalAndOtherChoicesApartFromTheText() {
        var machine = Self.machine()
        #expect(machine.modelEvent(.reasoning("Think"), now: .zero) == [.emit(.reasoning("Think"))])
        #expect(machine.modelEvent(.text("Yes"), now: .zero) == [.emit(.token("Yes"))])
        #expect(machine.modelEvent(.refusal("No"), now: .zero) == [.emit(.refusal("No"))])
        #expect(machine.modelEvent(.text("other", choice: 1), now: .zero) == [])
        #expect(machine.modelEvent(.text(""), now: .zero) == [])
    }

    @Test func aToolCallIsSentWholeWhenTheNextStartsOrTheChoiceFinishes() {
        var machine = Self.machine()
        let first = ToolCallDelta(index: 0, id: "c1", name: "f", argumentsDelta: "{\"a\":")
        #expect(machine.modelEvent(.toolCall(first), now: .zero) == [])
        #expect(machine.modelEvent(.toolCall(ToolCallDelta(index: 0, argumentsDelta: "1}")), now: .zero) == [])
        #expect(
            machine.modelEvent(.toolCall(ToolCallDelta(index: 1, id: "c2", name: "g")), now: .zero)
                == [.emit(.toolCall(ToolCall(id: "c1", name: "f", arguments: "{\"a\":1}")))])
        // A late fragment of a call already sent cannot change it; it is counted.
        #expect(machine.modelEvent(.toolCall(ToolCallDelta(index: 0, argumentsDelta: "x")), now: .zero) == [])
        #expect(machine.modelEvent(.toolCall(ToolCallDelta(choice: 1, index: 0, name: "h")), now: .zero) == [])
        #expect(
            machine.modelEvent(.finish(.toolCalls), now: .zero)
                == [.emit(.toolCall(ToolCall(id: "c2", name: "g", arguments: "")))])
        guard case .emit(.complete(let completion)) = machine.modelEnded(now: .seconds(1)).first else {
            Issue.record("no complete")
            return
        }
        #expect(completion.metadata["finish_reason"] == .string("toolCalls"))
        #expect(completion.metadata["tool_call_fragments_dropped"] == .number(1))
    }

    @Test func aCutStreamDoesNotSendItsHalfToolCall() {
        var machine = Self.machine()
        _ = machine.modelEvent(.text("Let me look."), now: .zero)  // sent: the call is not retried
        _ = machine.modelEvent(.toolCall(ToolCallDelta(index: 0, id: "c1", name: "f", argumentsDelta: "{")), now: .zero)
        #expect(machine.modelEvent(.finish(.truncated), now: .zero) == [])
        let ending = machine.modelEnded(now: .zero)
        #expect(ending.count == 3)
        #expect(Self.errorCode(ending) == "model_truncated")
    }

    @Test func retriesOnlyWhileNothingWasSent() {
        var machine = Self.machine()
        let busy = ResearchMachine.ModelFailure(message: "busy", retryable: true, retryAfter: .seconds(3), status: 503)
        #expect(machine.modelFailed(busy, now: .seconds(1)) == [.closeModelCall])
        #expect(machine.nextDeadline == .seconds(4))
        #expect(machine.deadlinePassed(now: .seconds(3)) == [])
        #expect(machine.deadlinePassed(now: .seconds(4)) == [.callModel(attempt: 2)])
        _ = machine.modelEvent(.reasoning("Hm"), now: .seconds(5))
        let ending = machine.modelFailed(busy, now: .seconds(6))
        #expect(
            ending == [
                .closeModelCall,
                .emit(.error(code: "model_failed", message: "the model call failed (HTTP 503): busy after 2 attempts")),
                .finish,
            ])
        #expect(machine.isFinished)
    }

    @Test func usagePastTheTokenBudgetEndsTheAnswer() {
        var machine = Self.machine(ChatConfiguration(maxAnswerTokens: 100))
        #expect(machine.modelEvent(.usage(ModelUsage(inputTokens: 60, outputTokens: 40)), now: .zero) == [])
        let over = machine.modelEvent(.usage(ModelUsage(inputTokens: 60, outputTokens: 41)), now: .zero)
        #expect(over.first == .closeModelCall)
        #expect(Self.errorCode(over) == "budget_exceeded")
    }

    @Test func theTimeBudgetAndTheIdleTimeoutEndTheAnswer() {
        var idle = Self.machine(ChatConfiguration(modelIdleTimeout: .seconds(5), maxAnswerTime: .seconds(8)))
        _ = idle.modelEvent(.text("a"), now: .seconds(2))
        #expect(idle.nextDeadline == .seconds(7))
        #expect(Self.errorCode(idle.deadlinePassed(now: .seconds(7))) == "model_timeout")

        var slow = Self.machine(ChatConfiguration(modelIdleTimeout: .seconds(5), maxAnswerTime: .seconds(8)))
        _ = slow.modelEvent(.text("a"), now: .seconds(4))
        #expect(slow.nextDeadline == .seconds(8))
        #expect(Self.errorCode(slow.deadlinePassed(now: .seconds(8))) == "budget_exceeded")
    }
}
