import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceResearch
import CadenceSearch
import CadenceServer
import CadenceTesting
import Hummingbird
import Testing

/// Research over two hosted sources end to end: the real reference server, the real model client and
/// a scripted model, a SearXNG-shaped server that answers and a PubMed-shaped one that fails.
@Suite("Research over several search sources, through the server")
struct ModelResearchSearchTests {
    static let searxngReply = """
        {"query": "resume", "number_of_results": 0, "results": [
          {"url": "https://example.org/resume-streams", "title": "Resuming event streams",
           "content": "A client resumes an interrupted stream by sending Last-Event-ID.", "engine": "bing",
           "publishedDate": null, "score": 1.0, "category": "general"}],
         "answers": [], "suggestions": [], "unresponsive_engines": []}
        """

    /// A loopback server: SearXNG's `/search` answers, PubMed's E-utilities answer 503.
    static func hostedAPIs() async throws -> LoopbackServer {
        let router = Router()
        router.get("search") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: searxngReply)))
        }
        router.get("eutils/esearch.fcgi") { _, _ in
            Response(
                status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: "NCBI is down")))
        }
        return try await LoopbackServer.start(router: router, label: "hosted-search")
    }

    @Test("A failing source yields search_failed naming it; the answer completes from the others and lists the failure")
    func oneSourceFails() async throws {
        let hosted = try await Self.hostedAPIs()
        defer { Task { await hosted.shutdown() } }
        let model = try await ScriptedModelServer.start(
            reply: ModelResearchServerTests.model { request in
                .text([ModelResearchServerTests.claimFromFirstSource(request) + " [1]."])
            })
        defer { Task { await model.shutdown() } }
        let corpus = try Corpus.bundled()
        let http = SearchHTTP()
        let engine = ModelResearchEngine(
            corpus: corpus,
            client: ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "scripted")),
            sources: [
                SearXNGSource(baseURL: hosted.baseURL, http: http),
                PubMedSource(apiKey: nil, baseURL: hosted.baseURL + "/eutils/", http: http, pacer: nil),
            ])
        try await withServer(engine: engine) { server in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), ModelResearchServerTests.question)
            let kinds = received.events.map(\.kind)
            #expect(received.error == nil)
            #expect(kinds.contains(.searching(source: "searxng")) && kinds.contains(.searching(source: "pubmed")))
            #expect(kinds.contains(.searchComplete(count: 2, source: "searxng")))  // the same page, for each of the two queries
            #expect(kinds.contains(.searchFailed(source: "pubmed", reason: "HTTP 503 Service Unavailable: NCBI is down")))
            guard case .complete(let completion)? = kinds.last else {
                Issue.record("the answer did not complete")
                return
            }
            #expect(completion.sources.map(\.url) == ["https://example.org/resume-streams"])
            #expect(completion.sources.first?.kind == .web)
            #expect(
                completion.metadata["search_failures"]
                    == .array([.object(["source": "pubmed", "reason": "HTTP 503 Service Unavailable: NCBI is down"])]))
            #expect(received.text.contains("[1]"))
        }
    }
}
