import CadenceCore
import CadenceSearch
import Testing

@testable import CadenceResearch

/// The research loop's branches, driven synchronously: every model reply is scripted, time is explicit.
@Suite struct ResearchMachineTests {
    static let resume = passage(1, "Resume", "The client resumes an interrupted stream from the last event id it saw.")
    static let retry = passage(2, "Retry", "Retries wait with exponential backoff and jitter, honouring Retry-After.")

    /// The model's replies when it plans one query (`resume`), asks for one more round with `next`, and
    /// then writes `answer`.
    static func replies(
        askingFor next: String, answer: String
    ) -> [ResearchMachine.ModelCall.Purpose: [ResearchMachineHarness.Reply]] {
        [
            .plan: [.text([#"{"queries":["resume"]}"#])],
            .reflect: [.text([#"{"sufficient": false, "queries": ["\#(next)"]}"#])],
            .write: [.text([answer])],
        ]
    }
    static let sse = passage(3, "SSE", "Server-sent events carry an id field that the client sends back as Last-Event-ID.")

    @Test func happyPathStreamsEveryStageThenTheAnswerAndAComplete() {
        var harness = ResearchMachineHarness(
            replies: [
                .plan: [.text([#"{"queries": ["resume stream", "#, #""last event id"]}"#], usage: ModelUsage(inputTokens: 50, outputTokens: 10))],
                .reflect: [.text([#"{"sufficient": true, "missing": "", "queries": []}"#], usage: ModelUsage(inputTokens: 80, outputTokens: 5))],
                .write: [.text(["Cadence resumes ", "from the last event [1]."], usage: ModelUsage(inputTokens: 300, outputTokens: 12))],
            ],
            passages: ["resume stream": [Self.resume], "last event id": [Self.sse, Self.resume]])
        harness.run()

        #expect(
            harness.stages == [
                "tier_selected", "planning_started", "planning_complete", "round_started", "searching",
                "search_complete", "round_complete", "reflection_started", "reflection_complete",
                "source_selection_started", "sources_ready", "synthesis_started", "token", "complete",
            ])
        #expect(harness.events.contains(.planningComplete(message: "The model planned 2 searches", queries: ["resume stream", "last event id"])))
        // The events name the source searched, not the query; the count covers every query.
        #expect(harness.events.contains(.searching(source: "corpus")))
        #expect(harness.events.contains(.searchComplete(count: 3, source: "corpus")))
        #expect(harness.events.contains(.roundComplete(round: 1, sources: 2, status: "2 new passages")))
        #expect(harness.text == "Cadence resumes from the last event [1].")
        #expect(harness.calls.map(\.purpose) == [.plan, .reflect, .write])
        #expect(harness.calls.map(\.wantsJSON) == [true, true, false])

        let completion = try! #require(harness.completion)
        #expect(completion.sources.map(\.id) == ["1", "2"])
        #expect(completion.sources.map(\.title) == ["Resume", "SSE"])
        let metadata = completion.metadata
        #expect(metadata["engine"] == .string("model-research"))
        #expect(metadata["model"] == .string("test-model"))
        #expect(metadata["rounds"] == .number(1))
        #expect(metadata["model_calls"] == .number(3))
        #expect(metadata["finish_reason"] == .string("stop"))
        #expect(metadata["usage"]?["input_tokens"] == .number(430))
        #expect(metadata["usage"]?["output_tokens"] == .number(27))
        #expect(metadata["usage"]?["total_tokens"] == .number(457))
        #expect(metadata["queries"] == .array(["resume stream", "last event id"]))
        for key in ["planning_ms", "search_ms", "reflection_ms", "synthesis_ms", "total_ms"] {
            #expect((metadata[key]?.doubleValue ?? 0) > 0, "\(key)")
        }
        #expect(harness.actions.last == .finish)
    }

    @Test func completionListsEachCitationsSupportAndTheDroppedOnes() {
        var harness = ResearchMachineHarness(
            replies: [
                .plan: [.text([#"{"queries":["resume"]}"#])], .reflect: [.text([#"{"sufficient":true}"#])],
                .write: [.text(["The client resumes an interrupted stream [", "1]. Bananas are yellow [1]. Made up [7]."])],
            ],
            passages: ["resume": [Self.resume]])
        harness.run()
        #expect(harness.text == "The client resumes an interrupted stream [1]. Bananas are yellow [1]. Made up.")
        let metadata = try! #require(harness.completion?.metadata)
        guard case .array(let checks)? = metadata["citations"], checks.count == 2 else {
            Issue.record("no citation checks in \(metadata)")
            return
        }
        #expect(checks[0]["supported"] == .bool(true))
        #expect(checks[1]["supported"] == .bool(false))
        #expect(checks[1]["sentence"] == .string("Bananas are yellow"))
        #expect(metadata["citations_supported"] == .number(1))
        #expect(metadata["citations_unsupported"] == .number(1))
        #expect(metadata["citations_dropped"] == .number(1))
    }

    @Test("100,000 citations: complete lists the first 1,000 checks, counts them all, and stays under 1 MiB")
    func manyCitationsAreCountedNotListed() throws {
        let sentence = "The client resumes an interrupted stream [1]. "
        let pieces = Array(repeating: String(repeating: sentence, count: 1_000), count: 100)
        var harness = ResearchMachineHarness(
            replies: [
                .plan: [.text([#"{"queries":["resume"]}"#])], .reflect: [.text([#"{"sufficient":true}"#])],
                .write: [.text(pieces)],
            ],
            passages: ["resume": [Self.resume]])
        harness.run()
        let completion = try #require(harness.completion)
        let metadata = completion.metadata
        #expect(metadata["citations"]?.arrayValue?.count == ResearchMachine.maxListedCitations)
        #expect(metadata["citations"]?.arrayValue?.first?["ordinal"] == .number(1))
        #expect(metadata["citations_total"] == .number(100_000))
        #expect(metadata["citations_omitted"] == .number(99_000))
        let supported = try #require(metadata["citations_supported"]?.intValue)
        let unsupported = try #require(metadata["citations_unsupported"]?.intValue)
        #expect(supported + unsupported == 100_000)
        #expect(supported == 100_000)
        let bytes = ResearchEvent(sequence: 1, kind: .complete(completion)).json.jsonText.utf8.count
        #expect(bytes < 1 << 20, "the complete event is \(bytes) bytes")
    }

    @Test func sourcesReadyComesBeforeTheFirstToken() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [.text([#"{"queries":["resume"]}"#])], .write: [.text(["Text [1]."])]],
            passages: ["resume": [Self.resume]])
        harness.run()
        let sourcesAt = harness.stages.firstIndex(of: "sources_ready")
        let tokenAt = harness.stages.firstIndex(of: "token")
        #expect(sourcesAt != nil && tokenAt != nil && sourcesAt! < tokenAt!)
    }

    @Test(arguments: [
        "I would search for resume and retry.",  // prose
        #"{"queries": ["resume", "#,  // broken JSON
        #"{"queries": []}"#,  // no queries
        #"{"plan": "none"}"#,  // no queries member
        "",  // nothing at all
    ])
    func anUnusablePlanFallsBackToTheQuestion(reply: String) {
        var harness = ResearchMachineHarness(
            query: "  How does Cadence resume a stream?  ",
            replies: [.plan: [.text([reply])], .write: [.text(["Answer."])]],
            passages: ["How does Cadence resume a stream?": [Self.resume]])
        harness.run()
        let planned = harness.events.compactMap { event -> [String]? in
            if case .planningComplete(_, let queries) = event { return queries }
            return nil
        }
        #expect(planned == [["How does Cadence resume a stream?"]])
        #expect(harness.events.contains(.searching(source: "corpus")))
        #expect(harness.machine.rounds == [["How does Cadence resume a stream?"]])
        #expect(harness.completion != nil)
        #expect(harness.error == nil)
    }

    @Test func aPlanInACodeFenceIsReadAndCappedWithoutRepeats() {
        let reply = """
            Here is the plan:
            ```json
            {"queries": ["resume", "Resume", "retry", " sse ", "backoff", "jitter"]}
            ```
            """
        var harness = ResearchMachineHarness(
            replies: [.plan: [.text([reply])], .write: [.text(["Answer."])]],
            passages: ["resume": [Self.resume]])
        harness.run()
        #expect(harness.machine.rounds.first == ["resume", "retry", "sse", "backoff"])
    }

    @Test func reflectionThatFindsGapsRunsAnotherRoundWithOnlyNewQueries() {
        var harness = ResearchMachineHarness(
            replies: [
                .plan: [.text([#"{"queries":["resume"]}"#])],
                .reflect: [
                    .text([#"{"sufficient": false, "missing": "retry policy", "queries": ["resume", "retry backoff"]}"#]),
                    .text([#"{"sufficient": true}"#]),
                ],
                .write: [.text(["Answer [1][2]."])],
            ],
            passages: ["resume": [Self.resume], "retry backoff": [Self.retry]])
        harness.run()
        #expect(harness.machine.rounds == [["resume"], ["retry backoff"]])
        #expect(harness.events.contains(.reflectionComplete(message: "Missing: retry policy. Searching again", sufficient: false)))
        #expect(harness.events.contains(.roundStarted(round: 2, message: "Searching again: 1 new query")))
        #expect(harness.events.contains(.reflectionComplete(message: "The model found the passages sufficient", sufficient: true)))
        #expect(harness.completion?.sources.count == 2)
        #expect(harness.completion?.metadata["rounds"] == .number(2))
    }

    @Test func aRoundThatAddsNoNewPassageEndsTheResearchWithoutAskingAgain() {
        var harness = ResearchMachineHarness(
            replies: Self.replies(askingFor: "resumption", answer: "Answer [1]."),
            passages: ["resume": [Self.resume], "resumption": [Self.resume]])
        harness.run()
        #expect(harness.calls.map(\.purpose) == [.plan, .reflect, .write])
        #expect(harness.events.contains(.roundComplete(round: 2, sources: 1, status: "no new passages")))
        #expect(
            harness.events.contains(
                .sourceSelectionStarted(message: "Round 2 added no new passage; choosing the best 1 of 1 passages")))
    }

    @Test func theRoundLimitStopsReflection() {
        var configuration = ResearchConfiguration()
        configuration.maxRounds = 2
        var harness = ResearchMachineHarness(
            configuration: configuration, replies: Self.replies(askingFor: "retry", answer: "Answer."),
            passages: ["resume": [Self.resume], "retry": [Self.retry]])
        harness.run()
        #expect(harness.machine.rounds.count == 2)
        #expect(harness.calls.map(\.purpose) == [.plan, .reflect, .write])
        #expect(
            harness.events.contains(
                .sourceSelectionStarted(message: "Reached the limit of 2 rounds; choosing the best 2 of 2 passages")))
    }

    @Test func anUnreadableReflectionWritesWithWhatWasFound() {
        var harness = ResearchMachineHarness(
            replies: [
                .plan: [.text([#"{"queries":["resume"]}"#])],
                .reflect: [.text(["Looks good to me!"])],
                .write: [.text(["Answer [1]."])],
            ],
            passages: ["resume": [Self.resume]])
        harness.run()
        #expect(
            harness.events.contains(
                .reflectionComplete(
                    message: "The model's reflection was not a JSON object; writing with what was found",
                    sufficient: nil)))
        #expect(harness.completion != nil)
    }

    @Test func nothingFoundStillAsksTheModelToSaySoWithNoSources() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [.text([#"{"queries":["quantum"]}"#])], .write: [.text(["The documents do not cover this."])]],
            passages: [:])
        harness.run()
        #expect(harness.events.contains(.sourcesReady([])))
        #expect(harness.calls.map(\.purpose) == [.plan, .write])
        #expect(harness.calls.last?.turns.first?.content.contains("found nothing relevant") == true)
        #expect(harness.completion?.sources == [])
    }

    @Test func sourcesAreCappedInAllAndPerDocument() {
        var configuration = ResearchConfiguration()
        configuration.maxSources = 3
        configuration.maxSourcesPerDocument = 1
        let hits = [
            passage(1, "A", "a one", score: 9, document: "a"), passage(2, "A", "a two", score: 8, document: "a"),
            passage(3, "B", "b", score: 7), passage(4, "C", "c", score: 6), passage(5, "D", "d", score: 5),
        ]
        var harness = ResearchMachineHarness(
            configuration: configuration,
            replies: [.plan: [.text([#"{"queries":["q"]}"#])], .reflect: [.text([#"{"sufficient":true}"#])], .write: [.text(["A."])]],
            passages: ["q": hits])
        harness.run()
        // One per document (the second "A" passage is skipped), three in all ("D" is left out).
        #expect(harness.completion?.sources.map(\.title) == ["A", "B", "C"])
    }

    @Test func historyGoesIntoPlanningAndWriting() {
        let history = [ChatTurn(role: "user", content: "What is SSE?"), ChatTurn(role: "assistant", content: "A protocol.")]
        var harness = ResearchMachineHarness(
            query: "And how does it resume?", history: history,
            replies: [.plan: [.text([#"{"queries":["sse resume"]}"#])], .write: [.text(["It resumes [1]."])]],
            passages: ["sse resume": [Self.sse]])
        harness.run()
        for purpose in [ResearchMachine.ModelCall.Purpose.plan, .write] {
            let turns = harness.calls.first { $0.purpose == purpose }!.turns
            #expect(turns.contains(history[0]), "\(purpose)")
            #expect(turns.contains(history[1]), "\(purpose)")
            #expect(turns.last?.content.contains("And how does it resume?") == true)
        }
    }

    @Test func theWritingPromptNumbersTheSources() {
        var harness = ResearchMachineHarness(
            replies: [.plan: [.text([#"{"queries":["q"]}"#])], .reflect: [.text([#"{"sufficient":true}"#])], .write: [.text(["A."])]],
            passages: ["q": [Self.resume, Self.retry]])
        harness.run()
        let system = harness.calls.last!.turns[0].content
        #expect(system.contains("[1] Resume\nThe client resumes"))
        #expect(system.contains("[2] Retry\nRetries wait"))
    }
}
