import CadenceCore
import CadenceSearch
import CadenceTesting
import Testing

/// PubMed and arXiv against loopback servers serving E-utilities' JSON and XML and arXiv's Atom feed.
@Suite("Paper search sources")
struct PaperSourceTests {
    @Test("PubMed: esearch's ids in its order, each paper's journal, date, authors, DOI and PMID from efetch")
    func pubmed() async throws {
        let api = try await SearchAPIServer.start([
            "/eutils/esearch.fcgi": [.json(SearchFixtures.esearch)], "/eutils/efetch.fcgi": [.xml(SearchFixtures.efetch)],
        ])
        defer { Task { await api.shutdown() } }
        let source = PubMedSource(apiKey: "ncbi-key", baseURL: api.baseURL + "/eutils", http: SearchHTTP(), pacer: nil)
        let papers = try await source.search("statin myopathy", limit: 5)
        #expect(papers.map(\.details.pmid) == ["38012345", "37654321"])

        let review = papers[0]
        #expect(review.title == "Statin-associated myopathy: a review.")
        #expect(review.url == "https://pubmed.ncbi.nlm.nih.gov/38012345/")
        #expect(review.details.kind == .paper)
        #expect(review.details.venue == "Journal of clinical lipidology")
        #expect(review.details.published == "2023")
        #expect(review.details.authors == ["Jane A Smith", "Li Ng"])
        #expect(review.details.doi == nil)

        let trial = papers[1]
        #expect(trial.details.published == "2023-09-02")
        #expect(trial.details.venue == "Lancet (London, England)")
        #expect(trial.details.doi == "10.1016/S0140-6736(22)01545-8")
        #expect(trial.details.authors == ["Cholesterol Treatment Trialists' Collaboration"])
        #expect(trial.text.contains("BACKGROUND: Statins are often blamed"))
        #expect(trial.text.contains("not caused by the statin & stopped"))

        let esearch = try #require(api.requests.first { $0.path.hasSuffix("esearch.fcgi") })
        #expect(esearch.query.contains("db=pubmed") && esearch.query.contains("term=statin%20myopathy"))
        #expect(esearch.query.contains("retmode=json") && esearch.query.contains("api_key=ncbi-key"))
        let efetch = try #require(api.requests.first { $0.path.hasSuffix("efetch.fcgi") })
        #expect(efetch.query.contains("id=38012345,37654321") && efetch.query.contains("retmode=xml"))
    }

    @Test("PubMed: no ids is no papers, and efetch is not called")
    func pubmedEmpty() async throws {
        let api = try await SearchAPIServer.start([
            "/esearch.fcgi": [.json(SearchFixtures.esearchEmpty)], "/efetch.fcgi": [.xml(SearchFixtures.efetch)],
        ])
        defer { Task { await api.shutdown() } }
        let source = PubMedSource(apiKey: nil, baseURL: api.baseURL, http: SearchHTTP(), pacer: nil)
        #expect(try await source.search("qqqzzz", limit: 5).isEmpty)
        #expect(api.requests.map(\.path) == ["/esearch.fcgi"])
        #expect(api.requests.first?.query.contains("api_key") == false)
    }

    @Test("PubMed: efetch XML that is cut off is an unreadable body")
    func pubmedGarbage() async throws {
        let api = try await SearchAPIServer.start([
            "/esearch.fcgi": [.json(SearchFixtures.esearch)],
            "/efetch.fcgi": [.xml(String(SearchFixtures.efetch.prefix(700)))],
        ])
        defer { Task { await api.shutdown() } }
        let source = PubMedSource(apiKey: nil, baseURL: api.baseURL, http: SearchHTTP(), pacer: nil)
        let error = await #expect(throws: SearchSourceError.self) { try await source.search("statin", limit: 5) }
        #expect(error?.code == .unreadableBody)
    }

    @Test("PubMed: requests are paced at 3 a second without a key, on the clock")
    func pubmedPacing() async throws {
        let api = try await SearchAPIServer.start([
            "/esearch.fcgi": [.json(SearchFixtures.esearch)], "/efetch.fcgi": [.xml(SearchFixtures.efetch)],
        ])
        defer { Task { await api.shutdown() } }
        let clock = ManualClock()
        let interval = PubMedSource.requestInterval(withKey: false)
        #expect(interval == .milliseconds(334) && PubMedSource.requestInterval(withKey: true) == .milliseconds(100))
        let source = PubMedSource(
            apiKey: nil, baseURL: api.baseURL, http: SearchHTTP(), pacer: RequestPacer(interval: interval, clock: clock))
        let search = Task { try await source.search("statin", limit: 5) }
        await clock.waitForSleep(until: interval)  // efetch waits for its slot
        #expect(api.requests.count == 1)
        clock.advance(by: interval)
        #expect(try await search.value.count == 2)
        #expect(api.requests.count == 2)
    }

    @Test("arXiv: entries as papers with arXiv id, DOI, journal reference and date; one request per 3 s")
    func arxiv() async throws {
        let api = try await SearchAPIServer.start(["/api/query": [.xml(SearchFixtures.arxiv), .xml(SearchFixtures.arxivEmpty)]])
        defer { Task { await api.shutdown() } }
        let clock = ManualClock()
        let source = ArxivSource(
            baseURL: api.baseURL + "/api/", http: SearchHTTP(),
            pacer: RequestPacer(interval: ArxivSource.requestInterval, clock: clock))
        let papers = try await source.search("token streaming", limit: 2)
        #expect(papers.map(\.title) == ["Streaming Token Delivery for Language Model Interfaces", "Server Push Revisited"])
        #expect(papers[0].url == "http://arxiv.org/abs/2401.01234v2")
        #expect(papers[0].text == "We study how tokens should be paced on screen.")
        #expect(papers[0].details.arxiv == "2401.01234v2")
        #expect(papers[0].details.doi == "10.48550/arXiv.2401.01234")
        #expect(papers[0].details.venue == "Proc. CHI 2024")
        #expect(papers[0].details.published == "2024-01-03")
        #expect(papers[0].details.authors == ["Ada Lovelace", "Alan Turing"])
        #expect(papers[1].details.venue == "arXiv")
        #expect(api.requests.first?.query.contains("search_query=all:token%20streaming") == true)
        #expect(api.requests.first?.query.contains("max_results=2") == true)

        let next = Task { try await source.search("nothing", limit: 2) }
        await clock.waitForSleep(until: .seconds(3))
        #expect(api.requests.count == 1)
        clock.advance(by: .seconds(3))
        #expect(try await next.value.isEmpty)
    }

    @Test("arXiv: its error entry is a failure with arXiv's words, not a paper titled Error")
    func arxivError() async throws {
        let api = try await SearchAPIServer.start(["/query": [.xml(SearchFixtures.arxivError)]])
        defer { Task { await api.shutdown() } }
        let source = ArxivSource(baseURL: api.baseURL, http: SearchHTTP(), pacer: nil)
        let error = await #expect(throws: SearchSourceError.self) { try await source.search("x", limit: 2) }
        #expect(error?.message == "arXiv said: max_results must be non-negative")
    }
}
