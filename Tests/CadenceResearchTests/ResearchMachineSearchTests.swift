import CadenceCore
import CadenceEngine
import CadenceSearch
import Testing

@testable import CadenceResearch

/// Rounds over several sources: each named in its events, results merged and deduplicated, a failed
/// source reported and passed over, and an honest answer when every source failed.
@Suite("Research machine over several search sources")
struct ResearchMachineSearchTests {
    static let plan: ResearchMachineHarness.Reply = .text([#"{"queries": ["statin myopathy"]}"#])
    static let enough: ResearchMachineHarness.Reply = .text([#"{"sufficient": true, "queries": []}"#])

    static func paper(_ pmid: String?, doi: String?, url: String, source: String, venue: String? = nil) -> RetrievedPassage {
        RetrievedPassage(
            id: 0, title: "Statins and muscle symptoms", url: url, text: "Most muscle symptoms were not caused by statins.",
            score: 1, source: source,
            details: SourceDetails(kind: .paper, published: "2023-09-02", venue: venue, pmid: pmid, doi: doi))
    }

    @Test("Each source has its searching and search_complete; one paper found by two sources is one source")
    func mergedAndNamed() {
        var harness = ResearchMachineHarness(
            searchSources: ["pubmed", "searxng"],
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.text(["Mostly not [1]."])]])
        harness.outcomes = { _ in
            [
                SearchOutcome(
                    source: "pubmed",
                    results: [[Self.paper("37654321", doi: "10.1016/X", url: "https://pubmed.ncbi.nlm.nih.gov/37654321/", source: "pubmed", venue: "Lancet")]]),
                SearchOutcome(
                    source: "searxng",
                    results: [[
                        Self.paper(nil, doi: "10.1016/x", url: "https://www.thelancet.com/article/X", source: "searxng"),
                        RetrievedPassage(
                            id: 0, title: "Statin FAQ", url: "https://example.org/faq", text: "Statins lower cholesterol.",
                            score: 0.5, source: "searxng", details: SourceDetails(kind: .web)),
                    ]]),
            ]
        }
        harness.run()
        #expect(
            harness.stages.prefix(8) == [
                "tier_selected", "planning_started", "planning_complete", "round_started", "searching", "searching",
                "search_complete", "search_complete",
            ])
        #expect(harness.events.contains(.searching(source: "pubmed")) && harness.events.contains(.searching(source: "searxng")))
        #expect(harness.events.contains(.searchComplete(count: 1, source: "pubmed")))
        #expect(harness.events.contains(.searchComplete(count: 2, source: "searxng")))
        let sources = harness.completion?.sources ?? []
        #expect(sources.map(\.url) == ["https://pubmed.ncbi.nlm.nih.gov/37654321/", "https://example.org/faq"])
        #expect(sources.first?.venue == "Lancet" && sources.first?.pmid == "37654321" && sources.first?.kind == .paper)
        #expect(sources.first?.year == "2023")
        #expect(harness.completion?.metadata["search_failures"] == nil)
        let writing = harness.calls.last?.turns.first?.content ?? ""
        #expect(writing.contains("[1] Statins and muscle symptoms (Lancet, 2023)"))
    }

    @Test("A failed source sends search_failed, is listed in complete, and the others' results are used")
    func oneFails() {
        var harness = ResearchMachineHarness(
            searchSources: ["pubmed", "corpus"],
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.text(["An answer [1]."])]])
        harness.outcomes = { queries in
            [
                SearchOutcome(source: "pubmed", results: queries.map { _ in [] }, failure: "no answer within 10 s"),
                SearchOutcome(source: "corpus", results: [[passage(3, "Notes", "Statins and muscles in my notes.")]]),
            ]
        }
        harness.run()
        #expect(harness.events.contains(.searchFailed(source: "pubmed", reason: "no answer within 10 s")))
        #expect(harness.events.contains(.searchComplete(count: 1, source: "corpus")))
        #expect(harness.completion?.sources.count == 1)
        #expect(
            harness.completion?.metadata["search_failures"]
                == .array([.object(["source": "pubmed", "reason": "no answer within 10 s"])]))
    }

    @Test("When every source fails the model is told to say so, no source is cited, and complete lists the failures")
    func everyOneFails() {
        var harness = ResearchMachineHarness(
            searchSources: ["pubmed", "arxiv"],
            replies: [.plan: [Self.plan], .write: [.text(["I could not search the sources [1]."])]])
        harness.outcomes = { queries in
            [
                SearchOutcome(source: "pubmed", results: queries.map { _ in [] }, failure: "HTTP 503 Service Unavailable"),
                SearchOutcome(source: "arxiv", results: queries.map { _ in [] }, failure: "rate limited"),
            ]
        }
        harness.run()
        #expect(harness.events.contains(.sourcesReady([])))
        #expect(harness.completion?.sources == [])
        #expect(harness.text == "I could not search the sources.")  // the invented [1] is dropped
        #expect(harness.calls.map(\.purpose) == [.plan, .write])
        let prompt = harness.calls.last?.turns.first?.content ?? ""
        #expect(prompt.contains("every search failed") && prompt.contains("pubmed (HTTP 503 Service Unavailable)"))
        #expect(harness.events.contains { event in
            if case .sourceSelectionStarted(let message?) = event { message.hasPrefix("Every search source failed") } else { false }
        })
        guard case .array(let failures)? = harness.completion?.metadata["search_failures"] else {
            Issue.record("no search_failures")
            return
        }
        #expect(failures.count == 2)
    }

    @Test("When one source fails and the other finds nothing, the model is told the search found nothing, not that every search failed")
    func oneFailsTheOtherFindsNothing() {
        var harness = ResearchMachineHarness(
            searchSources: ["pubmed", "corpus"],
            replies: [.plan: [Self.plan], .write: [.text(["Nothing found."])]])
        harness.outcomes = { queries in
            [
                SearchOutcome(source: "pubmed", results: queries.map { _ in [] }, failure: "HTTP 503 Service Unavailable"),
                SearchOutcome(source: "corpus", results: queries.map { _ in [] }),
            ]
        }
        harness.run()
        let prompt = harness.calls.last?.turns.first?.content ?? ""
        #expect(!prompt.contains("every search failed"), "\(prompt)")
        #expect(prompt.contains("found nothing") && prompt.contains("pubmed (HTTP 503 Service Unavailable)"))
        #expect(harness.events.contains(.synthesisStarted(message: "Nothing relevant found; the model says so")))
        #expect(harness.events.contains { event in
            if case .sourceSelectionStarted(let message?) = event { message.hasPrefix("Nothing matched the searches") } else { false }
        })
    }

    @Test("A round past the search budget is not started; the answer is written from what was found")
    func budgetSpent() {
        var configuration = ResearchConfiguration()
        configuration.searchBudget = .milliseconds(5)  // the harness's search step takes 10 ms
        var harness = ResearchMachineHarness(
            configuration: configuration,
            replies: [
                .plan: [Self.plan], .reflect: [.text([#"{"sufficient": false, "queries": ["statin dose"]}"#])],
                .write: [.text(["Done [1]."])],
            ],
            passages: ["statin myopathy": [passage(1, "Notes", "Statins and muscles.")]])
        harness.run()
        #expect(harness.machine.rounds == [["statin myopathy"]])
        #expect(harness.machine.searchTimeLeft < .zero)
        #expect(harness.events.contains { event in
            if case .sourceSelectionStarted(let message?) = event { message.hasPrefix("The search budget of 0.005 s is spent") } else { false }
        })
        #expect(harness.completion?.sources.count == 1)
    }

    @Test("A long corpus passage is listed with the index's snippet around the words searched for, a short one whole")
    func corpusSnippets() async throws {
        let filler = (1...40).map { "Sentence \($0) talks about nothing in particular." }.joined(separator: " ")
        let corpus = try Corpus(documents: [
            Document(collection: "notes", path: "long.md", text: "# Long notes\n\n\(filler) Statins can cause myopathy rarely."),
            Document(collection: "notes", path: "short.md", text: "# Short notes\n\nMyopathy is rare."),
        ])
        let found = try await CorpusSearchSource(corpus: corpus).search("statin myopathy", limit: 5)
        var harness = ResearchMachineHarness(
            replies: [.plan: [Self.plan], .reflect: [Self.enough], .write: [.text(["Rarely [1][2]."])]],
            passages: ["statin myopathy": found])
        harness.run()
        let sources = try #require(harness.completion?.sources)
        let long = try #require(sources.first { $0.title == "Long notes" })
        #expect(long.snippet.contains("Statins can cause myopathy"), "\(long.snippet)")
        #expect(long.snippet.hasPrefix("…") && long.snippet.count < 300)
        #expect(sources.first { $0.title == "Short notes" }?.snippet == "Myopathy is rare.")
    }
}
