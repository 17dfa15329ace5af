import CadenceCore
import CadenceEngine
import CadenceSearch
import CadenceTesting
import Testing

/// The corpus engine (no model) answering from other sources than its documents: what it says was searched.
@Suite("Corpus engine over search sources")
struct CorpusEngineSourcesTests {
    static func text(_ engine: CorpusEngine, _ question: String) async throws -> String {
        var text = ""
        for try await event in engine.answer(AnswerRequest(query: question)) {
            if case .token(let token) = event { text += token }
        }
        return text
    }

    @Test("A partly covered question names the sources searched, not the corpus")
    func partlyCoveredNamesTheSources() async throws {
        let api = try await SearchAPIServer.start(["/search": [.json(SearchFixtures.searxng)]])
        defer { Task { await api.shutdown() } }
        let fanout = SearchFanout(sources: [SearXNGSource(baseURL: api.baseURL, http: SearchHTTP())], clock: ManualClock())
        let engine = CorpusEngine(
            corpus: try Corpus.bundled(), sources: fanout, clock: ManualClock(), tokenDelay: .zero, stageDelay: .zero)
        let text = try await Self.text(engine, "Do server-sent events need bread, flour and yeast?")
        #expect(text.hasPrefix("What searxng found only partly covers this: the best passages say nothing about"), "\(text)")
        #expect(text.contains("bread") && !text.contains("corpus"))
        #expect(text.contains("[1]"))
    }

    @Test("When one source fails and another finds nothing, the answer says which found nothing and which failed")
    func oneFailsTheOtherFindsNothing() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [.json(SearchFixtures.searxngEmpty)],
            "/eutils/esearch.fcgi": [SearchAPIServer.Reply(status: .serviceUnavailable, body: "NCBI is down")],
        ])
        defer { Task { await api.shutdown() } }
        let http = SearchHTTP()
        let fanout = SearchFanout(
            sources: [
                SearXNGSource(baseURL: api.baseURL, http: http),
                PubMedSource(apiKey: nil, baseURL: api.baseURL + "/eutils/", http: http, pacer: nil),
            ], clock: ManualClock())
        let engine = CorpusEngine(
            corpus: try Corpus.bundled(), sources: fanout, clock: ManualClock(), tokenDelay: .zero, stageDelay: .zero)
        let text = try await Self.text(engine, "How do statins cause myopathy?")
        #expect(text.hasPrefix("I couldn't find anything about"), "\(text)")
        #expect(text.contains(" in searxng; pubmed (HTTP 503") && text.contains("could not be searched"), "\(text)")
    }
}
