import CadenceCore
import CadenceSearch
import Testing

@testable import CadenceResearch

/// How a model's failures end an answer: retried when nothing reached the readers, otherwise one
/// `error` event after the text so far, never a `complete`.
@Suite struct ResearchMachineFailureTests {
    static let resume = passage(1, "Resume", "The client resumes an interrupted stream from the last event id.")
    static let plan = ResearchMachineHarness.Reply.text([#"{"queries":["resume"]}"#])
    static let enough = ResearchMachineHarness.Reply.text([#"{"sufficient":true}"#])

    static func overloaded(retryAfter: Duration? = nil) -> ResearchMachineHarness.Reply {
        .failure(.init(message: "the server answered HTTP 429 Too Many Requests", retryable: true, retryAfter: retryAfter, status: 429))
    }

    @Test func aRetryableFailureBeforeOutputIsRetriedAfterRetryAfter() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.overloaded(retryAfter: .seconds(2)), Self.plan], .reflect: [Self.enough], .write: [.text(["Done [1]."])]],
            passages: ["resume": [Self.resume]])
        harness.run()
        #expect(harness.calls.count == 1)
        #expect(harness.actions.last == .closeModelCall)
        #expect(harness.machine.nextDeadline == harness.now + .seconds(2))
        harness.fireDeadline()
        #expect(harness.calls.map(\.attempt) == [1, 2, 1, 1])
        #expect(harness.completion != nil)
        #expect(harness.completion?.metadata["model_calls"] == .number(4))
    }

    @Test func retriesUseBackoffWhenThereIsNoRetryAfter() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.overloaded(), Self.plan]], passages: [:])
        harness.run()
        let wait = harness.machine.nextDeadline.map { $0 - harness.now }
        // The first retry waits between half and all of the 500 ms base.
        #expect(wait != nil && wait! >= .milliseconds(250) && wait! <= .milliseconds(500))
    }

    @Test func exhaustedRetriesEndTheAnswerWithAnError() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.overloaded(), Self.overloaded(), Self.overloaded()]], passages: [:])
        harness.run()
        harness.fireDeadline()
        harness.fireDeadline()
        #expect(harness.calls.count == 3)
        #expect(harness.error?.code == "model_failed")
        #expect(harness.error?.message.contains("HTTP 429") == true)
        #expect(harness.error?.message.contains("after 3 attempts") == true)
        #expect(harness.completion == nil)
        #expect(harness.machine.isFinished)
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test func aFailureThatCannotPassIsNotRetried() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [.failure(.init(message: "invalid API key", retryable: false, status: 401))]], passages: [:])
        harness.run()
        #expect(harness.calls.count == 1)
        #expect(harness.error?.code == "model_failed")
        #expect(harness.error?.message == "the model call failed (HTTP 401): invalid API key")
    }

    @Test func aStatusTheMessageNamesIsNotSaidTwice() {
        let said = "the server answered HTTP 401 Unauthorized: invalid API key"
        var harness = ResearchMachineHarness(
            replies: [.plan: [.failure(.init(message: said, retryable: false, status: 401))]], passages: [:])
        harness.run()
        #expect(harness.error?.message == "the model call failed: \(said)")
    }

    @Test func anErrorMidStreamEndsAfterTheTextSoFar() {
        var harness = ResearchMachineHarness(
            replies: [
                .plan: [Self.plan], .reflect: [Self.enough],
                .write: [.errorAfter(["Cadence resumes ", "from the "], ModelError(code: "server_error", message: "overloaded", retryable: true))],
            ],
            passages: ["resume": [Self.resume]])
        harness.run()
        // The trailing space was held (a dropped citation might have followed); the cut answer ends without it.
        #expect(harness.text == "Cadence resumes from the")
        #expect(harness.error?.code == "model_error")
        #expect(harness.error?.message == "the model reported an error: overloaded")
        #expect(harness.completion == nil)
        #expect(harness.stages.suffix(2) == ["token", "error"])
        #expect(harness.calls.count == 3)  // text had been sent: no retry
    }

    @Test func aTruncatedAnswerEndsWithAnErrorNotAComplete() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.text(["Cadence resumes", " from"], finish: nil)]],
            passages: ["resume": [Self.resume]])
        harness.run()
        #expect(harness.text == "Cadence resumes from")
        #expect(harness.error?.code == "model_truncated")
        #expect(harness.completion == nil)
    }

    @Test func aTruncationBeforeAnyTextIsRetried() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.text([], finish: nil), .text(["Whole [1]."])]],
            passages: ["resume": [Self.resume]])
        harness.run()
        harness.fireDeadline()
        #expect(harness.text == "Whole [1].")
        #expect(harness.completion != nil)
    }

    @Test func aSilentModelIsClosedAfterTheIdleTimeout() {
        var configuration = ResearchConfiguration()
        configuration.modelIdleTimeout = .seconds(5)
        var harness = ResearchMachineHarness(
            configuration: configuration,
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.silentAfter(["Cadence ", "resumes"])]],
            passages: ["resume": [Self.resume]])
        harness.run()
        #expect(harness.waiting)
        // The deadline runs from the last piece of output, not from the start of the call.
        let lastOutput = harness.now
        #expect(harness.machine.nextDeadline == lastOutput + .seconds(5))
        // A deadline that fires early (a late timer from before) changes nothing.
        #expect(harness.machine.deadlinePassed(now: lastOutput + .seconds(4)) == [])
        harness.fireDeadline()
        #expect(harness.text == "Cadence resumes")
        #expect(harness.error?.code == "model_timeout")
        #expect(harness.error?.message.contains("sent nothing for 5 s during writing") == true)
        #expect(harness.actions.suffix(3) == [.closeModelCall, .emit(.error(code: "model_timeout", message: harness.error!.message)), .finish])
    }

    @Test func aSilentPlanningCallTimesOutToo() {
        var harness = ResearchMachineHarness(replies: [.plan: [.silentAfter([])]], passages: [:])
        harness.run()
        harness.fireDeadline()
        #expect(harness.error?.code == "model_timeout")
        #expect(harness.error?.message.contains("during planning") == true)
    }

    @Test func cancelClosesTheCallAndSendsNothingMore() {
        var harness = ResearchMachineHarness(replies: [.plan: [.silentAfter([])]], passages: [:])
        harness.run()
        #expect(harness.machine.cancel() == [.closeModelCall])
        #expect(harness.machine.isFinished)
        #expect(harness.machine.modelEvent(.text("late"), now: .seconds(9)) == [])
        #expect(harness.machine.modelEnded(now: .seconds(9)) == [])
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test func lateInputAfterTheEndIsIgnored() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.text(["A."])]], passages: ["resume": [Self.resume]])
        harness.run()
        #expect(harness.machine.isFinished)
        #expect(harness.machine.modelFailed(.init(message: "x", retryable: true), now: .seconds(99)) == [])
        #expect(harness.machine.searchCompleted([SearchOutcome](), now: .seconds(99)) == [])
        #expect(harness.machine.deadlinePassed(now: .seconds(99)) == [])
    }
}
