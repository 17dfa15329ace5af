import CadenceCore
import CadenceTesting
import Hummingbird
import Testing

/// The offline corpus engine over hosted search sources, through the built binary: SearXNG and PubMed
/// answer from their documented formats on a loopback server, and arXiv fails.
@Suite("The corpus engine over --search sources, through the command")
struct CorpusSearchCommandTests {
    static let question = "Are statins blamed for muscle pain, and how do server-sent events push data to a page?"
    static let paperTitle = "Statin therapy and muscle symptoms: an individual participant data meta-analysis."

    /// A loopback server: SearXNG's `/search` and PubMed's E-utilities answer (when `failing` is
    /// false), arXiv's `/arxiv/query` answers 503.
    static func hostedAPIs(failing: Bool = false) async throws -> LoopbackServer {
        @Sendable func reply(_ body: String, _ type: String) -> Response {
            Response(
                status: failing ? .serviceUnavailable : .ok, headers: [.contentType: type],
                body: ResponseBody(byteBuffer: ByteBuffer(string: failing ? "upstream down" : body)))
        }
        let router = Router()
        router.get("search") { _, _ in reply(SearchFixtures.searxng, "application/json") }
        router.get("eutils/esearch.fcgi") { _, _ in reply(SearchFixtures.esearch, "application/json") }
        router.get("eutils/efetch.fcgi") { _, _ in reply(SearchFixtures.efetch, "application/xml") }
        router.get("arxiv/query") { _, _ in
            Response(status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: "arXiv is down")))
        }
        return try await LoopbackServer.start(router: router, label: "corpus-search")
    }

    static func searchArguments(_ base: String) -> [String] {
        ["--search", "searxng=\(base)", "--search", "pubmed=\(base)/eutils/", "--search", "arxiv=\(base)/arxiv/"]
    }

    /// The JSON lines of a `--json` run.
    static func lines(_ stdout: String) -> [JSONValue] {
        stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
    }

    @Test(
        "Without a model, every source is searched and named, a failing one is reported, and the answer quotes papers and pages with their details",
        arguments: [
            ["demo", "--json", "--engine-delay-ms", "0", "--question", question],
            ["ask", "--research", "--json", question],
        ])
    func sourcesSearched(command: [String]) async throws {
        let hosted = try await Self.hostedAPIs()
        defer { Task { await hosted.shutdown() } }
        let result = try await CadenceBinary.run(
            command + Self.searchArguments(hosted.baseURL), environment: ["NCBI_API_KEY": ""])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = Self.lines(result.stdout)
        let stages = lines.filter { $0["type"] == "stage" }.compactMap { $0["event"] }
        func stage(_ type: JSONValue, _ source: JSONValue) -> JSONValue? {
            stages.first { $0["type"] == type && $0["source"] == source }
        }
        for source: JSONValue in ["searxng", "pubmed", "arxiv"] {
            #expect(stage("searching", source) != nil, "no searching event for \(source)")
        }
        // The SearXNG reply's two pages (its javascript: result is dropped) and PubMed's two papers.
        #expect(stage("search_complete", "searxng")?["count"] == 2)
        #expect(stage("search_complete", "pubmed")?["count"] == 2)
        #expect(stage("search_failed", "arxiv")?["reason"] == "HTTP 503 Service Unavailable: arXiv is down")
        #expect(!stages.contains { $0["type"] == "searching" && $0["source"] == "cadence" })

        guard let completed = lines.last(where: { $0["type"] == "completed" }),
            let sources = completed["sources"]?.arrayValue
        else {
            Issue.record("the answer did not complete: \(result.stdout.suffix(400))")
            return
        }
        let paper = sources.first { $0["pmid"] == "37654321" }
        #expect(paper?["title"] == .string(Self.paperTitle))
        #expect(paper?["kind"] == "paper" && paper?["venue"] == "Lancet (London, England)")
        #expect(paper?["published"]?.stringValue?.hasPrefix("2023") == true)
        #expect(paper?["doi"] == "10.1016/S0140-6736(22)01545-8")
        let page = sources.first { $0["kind"] == "web" }
        #expect(page?["url"]?.stringValue?.hasPrefix("https://developer.mozilla.org/") == true, "sources: \(sources)")
        #expect(completed["metadata"]?["search_sources"] == ["searxng", "pubmed", "arxiv"])
        #expect(
            completed["metadata"]?["search_failures"]
                == [["source": "arxiv", "reason": "HTTP 503 Service Unavailable: arXiv is down"]])
        // Each quoted sentence carries the number of the source it comes from.
        let text = lines.filter { $0["type"] == "text" }.compactMap { $0["text"]?.stringValue }.joined()
        let (paperID, pageID) = (paper?["id"]?.stringValue ?? "?", page?["id"]?.stringValue ?? "?")
        #expect(text.contains("Statins are often blamed for muscle pain [\(paperID)]."), "text: \(text)")
        #expect(text.contains("Server-sent events let a server push data to a page [\(pageID)]."), "text: \(text)")
    }

    @Test("The terminal's source list shows a paper's venue and year")
    func sourceListShowsVenueAndYear() async throws {
        let hosted = try await Self.hostedAPIs()
        defer { Task { await hosted.shutdown() } }
        let result = try await CadenceBinary.run(
            ["demo", "--plain", "--engine-delay-ms", "0", "--question", Self.question]
                + Self.searchArguments(hosted.baseURL), environment: ["NCBI_API_KEY": ""])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stdout.contains("\(Self.paperTitle) (Lancet (London, England), 2023) — https://pubmed.ncbi.nlm.nih.gov/37654321/"),
            "stdout: \(result.stdout)")
    }

    @Test("When every source fails, the answer says so, lists the failures and cites nothing")
    func everySourceFails() async throws {
        let hosted = try await Self.hostedAPIs(failing: true)
        defer { Task { await hosted.shutdown() } }
        let result = try await CadenceBinary.run(
            ["demo", "--json", "--engine-delay-ms", "0", "--question", Self.question]
                + Self.searchArguments(hosted.baseURL), environment: ["NCBI_API_KEY": ""])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = Self.lines(result.stdout)
        let failed = lines.compactMap { $0["event"] }.filter { $0["type"] == "search_failed" }.compactMap { $0["source"] }
        #expect(failed == ["searxng", "pubmed", "arxiv"])
        let completed = lines.last { $0["type"] == "completed" }
        #expect(completed?["sources"]?.arrayValue?.isEmpty ?? true)
        #expect(completed?["metadata"]?["search_failures"]?.arrayValue?.count == 3)
        let text = lines.filter { $0["type"] == "text" }.compactMap { $0["text"]?.stringValue }.joined()
        #expect(text.hasPrefix("Every search failed, so there is nothing to quote: searxng (HTTP 503"), "text: \(text)")
        #expect(!text.contains("["), "text: \(text)")
    }
}
