import CadenceCore
import Testing

/// The optional members of a source on the wire: written only when known, read tolerantly.
@Suite("Source details")
struct SourceDetailsTests {
    @Test("Known members are written under their protocol names; unknown ones are left out")
    func written() throws {
        let json = ResearchProtocolTests.paper.json
        #expect(json["kind"] == "paper")
        #expect(json["published"] == "2023-09-02")
        #expect(json["authors"] == ["Jane Smith", "Li Ng"])
        #expect(json["venue"] == "Lancet")
        #expect(json["pmid"] == "37654321")
        #expect(json["arxiv"] == "2401.01234v2")
        #expect(json["doi"] == "10.1016/S0140-6736(22)01545-8")
        let plain = Source(id: "1", title: "Resume", url: "cadence://corpus/cadence/resume.md").json
        #expect(plain.objectValue?.keys.sorted() == ["id", "snippet", "title", "url"])
    }

    @Test("A member of the wrong type is left out, a numeric PMID is read as text, an unknown kind is kept")
    func readTolerantly() throws {
        let event = try ResearchEvent(
            json: try JSONValue(
                parsing: """
                    {"type": "sources_ready", "sources": [{"id": "1", "title": "T", "url": "https://x.org",
                     "kind": "dataset", "pmid": 123, "authors": ["A", 7, "B"], "venue": {"name": "odd"}, "doi": null}]}
                    """))
        guard case .sourcesReady(let sources) = event.kind, let source = sources.first else {
            Issue.record("not sources_ready: \(event.kind)")
            return
        }
        #expect(source.kind == SourceKind(rawValue: "dataset"))
        #expect(source.pmid == "123")
        #expect(source.authors == ["A", "B"])
        #expect(source.venue == nil && source.doi == nil && source.published == nil)
    }

    @Test("A paper is listed with its venue and year; other sources by title alone")
    func listedTitle() {
        #expect(ResearchProtocolTests.paper.listedTitle == "Statins and muscle symptoms (Lancet, 2023)")
        #expect(ResearchProtocolTests.paper.year == "2023")
        var web = ResearchProtocolTests.paper
        web.kind = .web
        #expect(web.listedTitle == "Statins and muscle symptoms")
        var undated = ResearchProtocolTests.paper
        undated.published = "n.d."
        undated.venue = nil
        #expect(undated.listedTitle == "Statins and muscle symptoms")
    }

    @Test("search_failed carries the source and the reason; stages describe it")
    func searchFailed() throws {
        let kind = ResearchEvent.Kind.searchFailed(source: "arxiv", reason: "rate limited")
        #expect(kind.wireType == "search_failed")
        #expect(kind.stageDescription == "Searching arxiv failed: rate limited")
        let decoded = try ResearchEvent(json: ["type": "search_failed", "source": "arxiv"])
        #expect(decoded.kind == .searchFailed(source: "arxiv", reason: "the server gave no reason"))
    }
}
