import CadenceCore
import CadenceEngine
import CadenceSearch
import CadenceTesting
import Testing

/// Every query on every source at once, each cut off on the clock.
@Suite("Search fanout")
struct SearchFanoutTests {
    let corpus = try! Corpus(documents: [
        Document(collection: "notes", path: "sse.md", text: "# Server-sent events\n\nServer-sent events push text to a page.")
    ])

    @Test("A source that does not answer within its timeout fails alone; the others' results stand")
    func slowSource() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [SearchAPIServer.Reply(headers: [], body: SearchFixtures.searxng, held: true)]
        ])
        defer { Task { await api.shutdown() } }
        let clock = ManualClock()
        let fanout = SearchFanout(
            sources: [CorpusSearchSource(corpus: corpus), SearXNGSource(baseURL: api.baseURL, http: SearchHTTP())],
            timeout: .seconds(10), clock: clock)
        #expect(fanout.names == ["corpus", "searxng"])
        let search = Task { await fanout.search(["server-sent events", "push"], limit: 5, timeLeft: .seconds(30)) }
        // One timeout per (source, query) begins; the corpus's two end (cancelled) when its searches
        // answer, and only then does the clock pass the ones still waiting for searxng.
        await clock.waitForSleeps(started: 4, pending: 2)
        clock.advance(by: .seconds(10))
        let outcomes = await search.value
        #expect(outcomes.map(\.source) == ["corpus", "searxng"])
        #expect(outcomes[0].failure == nil && outcomes[0].count == 2)
        #expect(outcomes[0].event == .searchComplete(count: 2, source: "corpus"))
        #expect(outcomes[1].failure == "no answer within 10 s")
        #expect(outcomes[1].event == .searchFailed(source: "searxng", reason: "no answer within 10 s"))
    }

    @Test("The search budget left caps the timeout; a spent budget fails every source without asking")
    func budget() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [SearchAPIServer.Reply(headers: [], body: SearchFixtures.searxng, held: true)]
        ])
        defer { Task { await api.shutdown() } }
        let clock = ManualClock()
        let fanout = SearchFanout(
            sources: [SearXNGSource(baseURL: api.baseURL, http: SearchHTTP())], timeout: .seconds(10), clock: clock)
        let search = Task { await fanout.search(["sse"], limit: 5, timeLeft: .seconds(3)) }
        await clock.waitForSleep(until: .seconds(3))
        clock.advance(by: .seconds(3))
        #expect(await search.value.first?.failure == "no answer within 3 s")

        let asked = api.requests.count
        let spent = await fanout.search(["sse"], limit: 5, timeLeft: .zero)
        #expect(spent.first?.failure == "the search budget was spent")
        #expect(api.requests.count == asked)
    }

    @Test("A source fails only when every query failed; its passages are labelled with its name")
    func partialFailure() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [SearchAPIServer.Reply(status: .serviceUnavailable, body: "busy"), .json(SearchFixtures.searxng)]
        ])
        defer { Task { await api.shutdown() } }
        let fanout = SearchFanout(
            sources: [SearXNGSource(baseURL: api.baseURL, http: SearchHTTP())], clock: ManualClock())
        let outcome = try #require(await fanout.search(["a", "b"], limit: 5, timeLeft: .seconds(30)).first)
        #expect(outcome.failure == nil)
        #expect(outcome.count == 2)
        #expect(outcome.results.flatMap { $0 }.allSatisfy { $0.source == "searxng" })
    }

    @Test("--search choices: names, base URLs and keys are checked before anything runs")
    func choices() throws {
        #expect(try SearchSourceChoice(parsing: "searxng=http://127.0.0.1:8888").baseURL == "http://127.0.0.1:8888")
        #expect(try SearchSourceChoice(parsing: "PubMed").name == "pubmed")
        #expect(throws: SearchSourceError.self) { try SearchSourceChoice(parsing: "google") }
        #expect(throws: SearchSourceError.self) { try SearchSourceChoice(parsing: "searxng") }
        #expect(throws: SearchSourceError.self) { try SearchSourceChoice(parsing: "arxiv=ftp://x.org") }
        #expect(throws: SearchSourceError.self) { try SearchSourceChoice(parsing: "brave").validate(environment: [:]) }
        #expect(throws: SearchSourceError.self) {
            try SearchSourceChoice(parsing: "tavily").validate(environment: ["TAVILY_API_KEY": ""])
        }
        try SearchSourceChoice(parsing: "brave").validate(environment: ["BRAVE_API_KEY": "k"])
        try SearchSourceChoice(parsing: "pubmed").validate(environment: [:])
        let unknown = #expect(throws: SearchSourceError.self) { try SearchSourceChoice(parsing: "google") }
        #expect(unknown?.message == "unknown search source \"google\"; choose from corpus, searxng, brave, tavily, pubmed, arxiv")
    }

    @Test("Identities: URL variants, DOI and PMID name the same source; corpus passages by position")
    func identities() {
        let a = RetrievedPassage(
            id: 0, title: "A", url: "https://www.Example.org/paper/#abstract", text: "", score: 1, source: "searxng")
        let b = RetrievedPassage(id: 0, title: "A", url: "http://example.org/paper", text: "", score: 1, source: "brave")
        #expect(a.identities == b.identities)
        let paper = RetrievedPassage(
            id: 0, title: "P", url: "https://pubmed.ncbi.nlm.nih.gov/1/", text: "", score: 1, source: "pubmed",
            details: SourceDetails(kind: .paper, pmid: "1", doi: "10.1/ABC"))
        #expect(paper.identities.contains("doi:10.1/abc") && paper.identities.contains("pmid:1"))
        #expect(RetrievedPassage(id: 7, title: "D", url: "cadence://x#y", text: "", score: 1).identities == ["corpus:7"])
    }
}
