import CadenceCore
import CadenceSearch
import Testing

@testable import CadenceResearch

/// Reading the round's best web pages: the machine asks for them, and their ranked text replaces the
/// snippets in the model's context, the sources and the citation checks; a page that was not read
/// keeps its snippet, and reading counts against the search budget.
@Suite("Research machine reading web pages")
struct ResearchMachinePageTests {
    static let plan: ResearchMachineHarness.Reply = .text([#"{"queries": ["leek soup"]}"#])
    static let enough: ResearchMachineHarness.Reply = .text([#"{"sufficient": true, "queries": []}"#])

    static func web(_ url: String, _ title: String, score: Double = 1) -> RetrievedPassage {
        RetrievedPassage(
            id: 0, title: title, url: url, text: "Snippet of \(title).", score: score, source: "searxng",
            details: SourceDetails(kind: .web))
    }

    static func harness(
        results: [RetrievedPassage], configuration: ResearchConfiguration = ResearchConfiguration()
    ) -> ResearchMachineHarness {
        var harness = ResearchMachineHarness(
            query: "How is leek soup made?", configuration: configuration, searchSources: ["searxng"],
            replies: [.plan: [plan], .reflect: [enough], .write: [.text(["Leeks first, then potatoes [1]."])]])
        harness.outcomes = { queries in [SearchOutcome(source: "searxng", results: queries.map { _ in results })] }
        return harness
    }

    @Test("The best web results' pages are asked for; a read page's passages replace its snippet everywhere")
    func readPageReplacesSnippet() {
        var configuration = ResearchConfiguration()
        configuration.pagesPerRound = 2
        let paper = RetrievedPassage(
            id: 0, title: "A leek trial", url: "https://pubmed.ncbi.nlm.nih.gov/1/", text: "Abstract.", score: 1,
            source: "searxng", details: SourceDetails(kind: .paper))
        var harness = Self.harness(
            results: [
                paper, Self.web("https://a.example/soup", "Soup", score: 0.9),
                Self.web("https://b.example/bread", "Bread", score: 0.5),
                Self.web("https://c.example/cake", "Cake", score: 0.2),
            ], configuration: configuration)
        let page = RetrievedPassage(
            id: 0, title: "Soup", heading: "Method", url: "https://a.example/soup",
            text: "Soften the leeks in butter, then add the potatoes.", score: 3, source: "web",
            details: SourceDetails(kind: .web))
        harness.pages = ["https://a.example/soup": PageReading(url: "https://a.example/soup", passages: [page])]
        harness.run()
        let asked = harness.actions.compactMap { action -> [String]? in
            if case .readPages(let urls, let queries) = action, queries == ["leek soup"] { urls } else { nil }
        }
        // Papers are not pages; the two best web results, best first.
        #expect(asked == [["https://a.example/soup", "https://b.example/bread"]])
        #expect(harness.stages.contains("round_complete"))
        #expect(
            harness.events.contains(
                .roundComplete(round: 1, sources: 4, status: "4 new passages; read 1 page, skipped 1")))
        let soup = harness.completion?.sources.first { $0.url == "https://a.example/soup" }
        #expect(soup?.snippet == "Soften the leeks in butter, then add the potatoes.")
        #expect(soup?.title == "Soup — Method")
        let bread = harness.completion?.sources.first { $0.url == "https://b.example/bread" }
        #expect(bread?.snippet == "Snippet of Bread.")
        let writing = harness.calls.last?.turns.map(\.content).joined() ?? ""
        #expect(writing.contains("Soften the leeks in butter"))
        #expect(!writing.contains("Snippet of Soup."))
    }

    @Test("A page already asked for in an earlier round is not fetched again")
    func noPageTwice() {
        var configuration = ResearchConfiguration()
        configuration.maxRounds = 2
        var harness = ResearchMachineHarness(
            query: "How is leek soup made?", configuration: configuration, searchSources: ["searxng"],
            replies: [
                .plan: [Self.plan], .reflect: [.text([#"{"sufficient": false, "queries": ["potato soup"]}"#])],
                .write: [.text(["Done [1]."])],
            ])
        harness.outcomes = { queries in
            let results =
                queries == ["leek soup"]
                ? [Self.web("https://a.example/soup", "Soup")]
                : [Self.web("https://a.example/soup/", "Soup"), Self.web("https://d.example/potato", "Potato")]
            return [SearchOutcome(source: "searxng", results: [results])]
        }
        harness.run()
        let asked = harness.actions.compactMap { action -> [String]? in
            if case .readPages(let urls, _) = action { urls } else { nil }
        }
        #expect(asked == [["https://a.example/soup"], ["https://d.example/potato"]])
    }

    @Test("With the search budget spent by the search, no page is read and the snippets stay")
    func budgetSpent() {
        var configuration = ResearchConfiguration()
        configuration.searchBudget = .milliseconds(10)  // the harness's search takes one 10 ms step
        var harness = Self.harness(results: [Self.web("https://a.example/soup", "Soup")], configuration: configuration)
        harness.run()
        #expect(!harness.actions.contains { if case .readPages = $0 { true } else { false } })
        #expect(harness.completion?.sources.first?.snippet == "Snippet of Soup.")
    }

    @Test("Reading takes its time from the search budget: it is counted in search_ms")
    func readingCounted() {
        var harness = Self.harness(results: [Self.web("https://a.example/soup", "Soup")])
        harness.run()
        // Search and reading each take one 10 ms step of the harness.
        #expect(harness.completion?.metadata["search_ms"] == .number(20))
    }

    @Test("With pagesPerRound 0 nothing is read")
    func readingOff() {
        var configuration = ResearchConfiguration()
        configuration.pagesPerRound = 0
        var harness = Self.harness(results: [Self.web("https://a.example/soup", "Soup")], configuration: configuration)
        harness.run()
        #expect(!harness.actions.contains { if case .readPages = $0 { true } else { false } })
        #expect(harness.events.contains(.roundComplete(round: 1, sources: 1, status: "1 new passage")))
    }
}
