import CadenceCore
import CadenceSearch
import Testing

@testable import CadenceResearch

/// The limits on one research answer's work: its time and its model tokens end it with
/// `budget_exceeded` after the text so far, and a plan or reflection reply is kept to its cap
/// however it arrives.
@Suite struct ResearchMachineBudgetTests {
    static let resume = passage(1, "Resume", "The client resumes an interrupted stream from the last event id.")
    static let plan = ResearchMachineHarness.Reply.text([#"{"queries":["resume"]}"#])
    static let enough = ResearchMachineHarness.Reply.text([#"{"sufficient":true}"#])

    static func configuration(time: Duration = .seconds(600), tokens: Int = 200_000) -> ResearchConfiguration {
        var configuration = ResearchConfiguration()
        configuration.maxAnswerTime = time
        configuration.maxAnswerTokens = tokens
        return configuration
    }

    /// The reply text the machine holds for the call in flight.
    static func reply(of machine: ResearchMachine) -> String? {
        if case .calling(let call) = machine.state { call.reply } else { nil }
    }

    @Test func oneHugeDeltaIsCutToTheCapBeforeItIsAppended() {
        var harness = ResearchMachineHarness(replies: [.plan: [.silentAfter([#"{"queries":""#])]])
        harness.run()
        _ = harness.machine.modelEvent(.text(String(repeating: "}", count: 200_000)), now: .seconds(1))
        #expect(Self.reply(of: harness.machine)?.utf8.count == ResearchMachine.maxReplyBytes)
        _ = harness.machine.modelEvent(.text("more"), now: .seconds(2))
        #expect(Self.reply(of: harness.machine)?.utf8.count == ResearchMachine.maxReplyBytes)
        _ = harness.machine.modelEvent(.finish(.stop), now: .seconds(3))
        let actions = harness.machine.modelEnded(now: .seconds(3))
        #expect(actions.first == .emit(.planningComplete(
            message: "The model's plan was not a JSON object; searching for the question itself",
            queries: ["How does Cadence resume a stream?"])))
    }

    @Test func theCapCutsBetweenCharacters() {
        var harness = ResearchMachineHarness(replies: [.plan: [.silentAfter(["{"])]])
        harness.run()
        _ = harness.machine.modelEvent(.text(String(repeating: "é", count: 40_000)), now: .seconds(1))
        let reply = Self.reply(of: harness.machine) ?? ""
        #expect(reply.utf8.count == ResearchMachine.maxReplyBytes - 1)  // "{" and 32,767 "é" of two bytes each
        #expect(reply.dropFirst().allSatisfy { $0 == "é" })
    }

    @Test func theTimeBudgetEndsAnAnswerWhoseModelKeepsTalking() {
        var harness = ResearchMachineHarness(
            configuration: Self.configuration(time: .seconds(30)),
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.silentAfter(["Cadence ", "resumes. "])]],
            passages: ["resume": [Self.resume]])
        harness.run()
        // The answer's deadline comes before the idle deadline of the call.
        #expect(harness.machine.nextDeadline == .seconds(30))
        // The citation processor holds a trailing space until what follows it arrives.
        #expect(harness.machine.modelEvent(.text("It "), now: .seconds(29)) == [.emit(.token(" It"))])
        #expect(harness.machine.deadlinePassed(now: .seconds(29)) == [])
        harness.fireDeadline()
        #expect(harness.now == .seconds(30))
        #expect(harness.text == "Cadence resumes.")  // the test's own event, " It", is not in the harness's record
        let error = harness.error
        #expect(error?.code == "budget_exceeded")
        #expect(error?.message == "the answer used its whole time budget (30 s) during writing; it ends here with the text so far")
        #expect(harness.actions.suffix(3) == [.closeModelCall, .emit(.error(code: "budget_exceeded", message: error?.message ?? "")), .finish])
        #expect(harness.completion == nil)
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test func theTimeBudgetCutsARetryWaitShort() {
        let overloaded = ResearchMachineHarness.Reply.failure(
            .init(message: "the server answered HTTP 429", retryable: true, retryAfter: .seconds(50), status: 429))
        var harness = ResearchMachineHarness(
            configuration: Self.configuration(time: .seconds(20)), replies: [.plan: [overloaded, Self.plan]])
        harness.run()
        #expect(harness.machine.nextDeadline == .seconds(20))
        harness.fireDeadline()
        #expect(harness.calls.count == 1)
        #expect(harness.error?.code == "budget_exceeded")
        #expect(harness.error?.message.contains("during the wait before retrying planning") == true)
        #expect(harness.actions.suffix(2) == [.emit(.error(code: "budget_exceeded", message: harness.error?.message ?? "")), .finish])
    }

    @Test func theTokenBudgetCountsInputAndOutputOverEveryCall() {
        let used = ModelUsage(inputTokens: 60, outputTokens: 40)
        var harness = ResearchMachineHarness(
            configuration: Self.configuration(tokens: 250),
            replies: [
                .plan: [.text([#"{"queries":["resume"]}"#], usage: used)],
                .reflect: [.text([#"{"sufficient":true}"#], usage: used)],
                .write: [.text(["Cadence resumes. ", "It waits. "], usage: used)],
            ],
            passages: ["resume": [Self.resume]])
        harness.run()
        // Plan and reflection used 200; writing's 100 more passes 250, when the model reports it.
        #expect(harness.text == "Cadence resumes. It waits.")
        #expect(harness.error?.code == "budget_exceeded")
        #expect(
            harness.error?.message
                == "the answer's model calls used 300 tokens (input plus output), past its budget of 250, during writing; it ends here with the text so far")
        #expect(harness.completion == nil)
        #expect(harness.actions.suffix(3).first == .closeModelCall)
        #expect(harness.calls.count == 3)
    }

    @Test func anAnswerWithinItsBudgetReportsWhatItUsed() {
        let used = ModelUsage(inputTokens: 60, outputTokens: 40)
        var harness = ResearchMachineHarness(
            configuration: Self.configuration(),
            replies: [
                .plan: [.text([#"{"queries":["resume"]}"#], usage: used)],
                .reflect: [.text([#"{"sufficient":true}"#], usage: used)],
                .write: [.text(["Done. "], usage: used)],
            ],
            passages: ["resume": [Self.resume]])
        harness.run()
        let budget = harness.completion?.metadata["budget"]
        #expect(budget?["tokens"] == .number(300))
        #expect(budget?["token_limit"] == .number(200_000))
        #expect(budget?["time_limit_ms"] == .number(600_000))
        #expect(budget?["time_ms"] == harness.completion?.metadata["total_ms"])
        #expect(budget?["time_ms"] != .number(0))
    }
}
