import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceResearch
import CadenceSearch
import CadenceServer
import CadenceTesting
import CadenceWeb
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing

/// Research over the web and PubMed end to end: the real reference server, the real model client and
/// a scripted model; a SearXNG-shaped and a PubMed-shaped server in their documented formats; a page
/// server for the web results (read through the fetch guard, allowed by `--fetch-allow`); and an
/// arXiv-shaped server that fails.
@Suite("Research reading web pages and papers, through the server")
struct ModelResearchPagesTests {
    static let question = AnswerRequest(query: "Do statins cause muscle pain?")

    /// The page the web result points to: its snippet says little, its text says what is cited.
    static let page = """
        <html><head><title>Statins and muscle pain</title><script>var x = "tracking";</script></head>
        <body><nav>Health A–Z</nav><h1>Statins and muscle pain</h1>
        <p>Many people worry about side effects.</p>
        <h2>What the trials found</h2>
        <p>In blinded trials muscle pain was reported as often on placebo as on statins, so most muscle pain is not caused by statins.</p>
        <footer>Cookie settings</footer></body></html>
        """

    static func searxng(pages: String) -> String {
        """
        {"query": "statin muscle pain", "number_of_results": 0, "results": [
          {"url": "\(pages)/statins", "title": "Statins and muscle pain", "content": "Read about statins.",
           "engine": "duckduckgo", "score": 2.0, "category": "general"},
          {"url": "http://10.1.2.3/intranet", "title": "Intranet statin notes", "content": "Internal notes on statin dosing.",
           "engine": "bing", "score": 1.0, "category": "general"}],
         "answers": [], "suggestions": [], "unresponsive_engines": []}
        """
    }

    static let esearch = """
        {"header": {"type": "esearch", "version": "0.3"},
         "esearchresult": {"count": "1", "retmax": "1", "retstart": "0", "idlist": ["37654321"],
          "translationset": [], "querytranslation": "statin muscle pain"}}
        """

    static let efetch = """
        <?xml version="1.0" ?>
        <PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">37654321</PMID>
        <Article PubModel="Print-Electronic"><Journal><JournalIssue CitedMedium="Internet"><PubDate><Year>2022</Year><Month>Sep</Month></PubDate></JournalIssue>
        <Title>Lancet (London, England)</Title><ISOAbbreviation>Lancet</ISOAbbreviation></Journal>
        <ArticleTitle>Effect of statin therapy on muscle symptoms: a meta-analysis.</ArticleTitle>
        <Abstract><AbstractText>Statin therapy caused only a small excess of mostly mild muscle pain in the first year.</AbstractText></Abstract>
        <AuthorList CompleteYN="Y"><Author ValidYN="Y"><CollectiveName>Cholesterol Treatment Trialists' Collaboration</CollectiveName></Author></AuthorList>
        </Article></MedlineCitation>
        <PubmedData><ArticleIdList><ArticleId IdType="pubmed">37654321</ArticleId><ArticleId IdType="doi">10.1016/S0140-6736(22)01545-8</ArticleId></ArticleIdList></PubmedData>
        </PubmedArticle></PubmedArticleSet>
        """

    static func reply(_ body: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// The hosted APIs on one loopback server, and the page server on another, each counting requests.
    static func servers(hits: NIOLockedValueBox<[String: Int]>) async throws -> (apis: LoopbackServer, pages: LoopbackServer) {
        let pageRouter = Router()
        pageRouter.get("statins") { _, _ in
            hits.withLockedValue { $0["page", default: 0] += 1 }
            return reply(page, type: "text/html; charset=utf-8")
        }
        let pages = try await LoopbackServer.start(router: pageRouter, label: "pages")
        let pagesURL = pages.baseURL
        let router = Router()
        router.get("search") { _, _ in
            hits.withLockedValue { $0["searxng", default: 0] += 1 }
            return reply(searxng(pages: pagesURL), type: "application/json")
        }
        router.get("eutils/esearch.fcgi") { _, _ in
            hits.withLockedValue { $0["esearch", default: 0] += 1 }
            return reply(esearch, type: "application/json")
        }
        router.get("eutils/efetch.fcgi") { _, _ in reply(efetch, type: "text/xml") }
        router.get("arxiv/query") { _, _ in
            hits.withLockedValue { $0["arxiv", default: 0] += 1 }
            return reply("arXiv is down", type: "text/plain", status: .serviceUnavailable)
        }
        return (try await LoopbackServer.start(router: router, label: "hosted-apis"), pages)
    }

    /// The writing prompt's excerpt of source `number`: a claim that source really makes.
    static func claim(_ number: Int, in request: ScriptedModelServer.Request) -> String {
        let system = request.messages.first?.content ?? ""
        guard let start = system.range(of: "\n\n[\(number)] ") else { return "nothing" }
        let lines = system[start.upperBound...].split(separator: "\n")
        return lines.count > 1
            ? String(lines[1].prefix(160)).trimmingCharacters(in: .punctuationCharacters) : "nothing"
    }

    /// The number the writing prompt gives the source whose label starts with `title`.
    static func number(of title: String, in request: ScriptedModelServer.Request) -> Int {
        let system = request.messages.first?.content ?? ""
        return (1...6).first { system.contains("\n\n[\($0)] \(title)") } ?? 0
    }

    /// A model that plans one search, finds the passages enough, and writes the claims of the page
    /// and of the paper, each with its citation.
    static func startModel() async throws -> ScriptedModelServer {
        try await ScriptedModelServer.start { request, _ in
            switch ModelResearchServerTests.stage(of: request) {
            case .plan: return .text([#"{"queries": ["statin muscle pain"]}"#])
            case .reflect: return ModelResearchServerTests.enough
            case .write:
                let page = Self.number(of: "Statins and muscle pain", in: request)
                let paper = Self.number(of: "Effect of statin therapy", in: request)
                return .text([
                    Self.claim(page, in: request) + " [\(page)]. ", Self.claim(paper, in: request) + " [\(paper)].",
                ])
            }
        }
    }

    @Test("The answer cites the fetched page's text and the paper; the refused page keeps its snippet; arXiv's failure is search_failed; a follow-up is served from the cache")
    func pagesAndPapers() async throws {
        let hits = NIOLockedValueBox<[String: Int]>([:])
        let (apis, pages) = try await Self.servers(hits: hits)
        defer { Task { await apis.shutdown(); await pages.shutdown() } }
        let model = try await Self.startModel()
        defer { Task { await model.shutdown() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try ResponseCache(path: folder.appendingPathComponent("cache.sqlite").path, timeToLive: .seconds(3600))
        let kit = SearchKit(clock: ContinuousClock(), cache: cache)
        let pagePort = try #require(URL(string: pages.baseURL)?.port)
        let reader = PageReader(
            fetcher: PageFetcher(policy: FetchPolicy(allowing: [FetchAllowance(host: "127.0.0.1", port: pagePort)])),
            cache: cache, clock: ContinuousClock())
        let engine = ModelResearchEngine(
            corpus: try Corpus.bundled(),
            client: ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "scripted")),
            sources: [
                SearXNGSource(baseURL: apis.baseURL, http: kit.http),
                PubMedSource(apiKey: nil, baseURL: apis.baseURL + "/eutils/", http: kit.http, pacer: nil),
                ArxivSource(baseURL: apis.baseURL + "/arxiv/", http: kit.http, pacer: nil),
            ], pages: reader)
        try await withServer(engine: engine) { server in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            let kinds = received.events.map(\.kind)
            #expect(received.error == nil)
            #expect(["searxng", "pubmed", "arxiv"].allSatisfy { kinds.contains(.searching(source: $0)) })
            #expect(kinds.contains { if case .searchFailed(source: "arxiv", let reason) = $0 { reason.contains("503") } else { false } })
            #expect(kinds.contains { if case .roundComplete(_, _, let status) = $0 { status.hasSuffix("read 1 page, skipped 1") } else { false } })
            guard case .complete(let completion)? = kinds.last else {
                Issue.record("the answer did not complete")
                return
            }
            let page = try #require(completion.sources.first { $0.url == pages.baseURL + "/statins" })
            #expect(page.kind == .web)
            #expect(page.snippet.contains("as often on placebo as on statins"))
            #expect(!page.snippet.contains("tracking") && !page.snippet.contains("Cookie"))
            let paper = try #require(completion.sources.first { $0.pmid == "37654321" })
            #expect(paper.kind == .paper && paper.venue == "Lancet (London, England)" && paper.year == "2022")
            let intranet = try #require(completion.sources.first { $0.url == "http://10.1.2.3/intranet" })
            #expect(intranet.snippet == "Internal notes on statin dosing.")
            // The answer quotes the page's text (not its snippet) and the paper, and both citations hold.
            #expect(received.text.contains("as often on placebo as on statins, so most muscle pain is not caused by statins [\(page.id)]"))
            #expect(received.text.contains("small excess of mostly mild muscle pain"))
            #expect(completion.metadata["citations_supported"] == .number(2))
            #expect(completion.metadata["search_failures"]?.arrayValue?.first?["source"] == .string("arxiv"))
            #expect(hits.withLockedValue { $0["page"] } == 1)

            // A follow-up asks the same searches: the searches and the page come from the cache, and
            // only the failed source (whose failure was not kept) is asked again.
            let before = hits.withLockedValue { $0 }
            let (_, again) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            #expect(again.endsWithComplete)
            let after = hits.withLockedValue { $0 }
            #expect(after["searxng"] == before["searxng"] && after["esearch"] == before["esearch"])
            #expect(after["page"] == 1)
            #expect((after["arxiv"] ?? 0) > (before["arxiv"] ?? 0))
        }
    }

    @Test("cadence ask --research reads the page (--fetch-allow), keeps searches and pages in cache.sqlite in the data folder for the next ask, and --cache-ttl 0 fetches again")
    func commandCaches() async throws {
        let hits = NIOLockedValueBox<[String: Int]>([:])
        let (apis, pages) = try await Self.servers(hits: hits)
        defer { Task { await apis.shutdown(); await pages.shutdown() } }
        let model = try await Self.startModel()
        defer { Task { await model.shutdown() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pagePort = try #require(URL(string: pages.baseURL)?.port)
        let ask = [
            "ask", "--research", "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted", "--plain",
            "--no-history", "--search", "searxng=\(apis.baseURL)", "--search", "pubmed=\(apis.baseURL)/eutils/",
            "--fetch-allow", "127.0.0.1:\(pagePort)",
        ]
        let environment = ["CADENCE_DATA_HOME": folder.path]
        let first = try await CadenceBinary.run(ask + [Self.question.query], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("as often on placebo as on statins"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cache.sqlite").path))
        let afterFirst = hits.withLockedValue { $0 }
        #expect(afterFirst["page"] == 1 && afterFirst["searxng"] == 1 && afterFirst["esearch"] == 1)

        let second = try await CadenceBinary.run(ask + [Self.question.query], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("as often on placebo as on statins"))
        #expect(hits.withLockedValue { $0 } == afterFirst)

        let uncached = try await CadenceBinary.run(ask + ["--cache-ttl", "0", Self.question.query], environment: environment)
        #expect(uncached.status == 0, "\(uncached.stderr)")
        let afterThird = hits.withLockedValue { $0 }
        #expect(afterThird["page"] == 2 && afterThird["searxng"] == 2 && afterThird["esearch"] == 2)
    }
}
