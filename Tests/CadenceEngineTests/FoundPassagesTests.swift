import CadenceCore
import Testing

@testable import CadenceEngine

/// How the corpus engine keeps what its sources found: the same paper found twice is one source,
/// with the fuller text and the details of both; failures are kept in order.
@Suite("Found passages")
struct FoundPassagesTests {
    static let snippet = FoundPassage(
        title: "Statins and muscle pain", url: "https://pubmed.ncbi.nlm.nih.gov/37654321/", text: "Statins and pain.",
        details: SourceDetails(kind: .web, published: "2024-02-01"),
        identities: ["url:pubmed.ncbi.nlm.nih.gov/37654321"])
    static let abstract = FoundPassage(
        title: "Statin therapy and muscle symptoms", url: "https://pubmed.ncbi.nlm.nih.gov/37654321/",
        text: "Statins are often blamed for muscle pain. Most muscle symptoms were not caused by the statin.",
        details: SourceDetails(kind: .paper, venue: "Lancet", pmid: "37654321"),
        identities: ["url:pubmed.ncbi.nlm.nih.gov/37654321", "pmid:37654321"])

    @Test("A paper found by a web search and by PubMed is kept once, with the abstract and the details of both")
    func mergesTheSamePaper() {
        var found = FoundPassages()
        let added = found.merge([
            SourceFindings(source: "searxng", passages: [Self.snippet]),
            SourceFindings(source: "pubmed", passages: [Self.abstract]),
            SourceFindings(source: "arxiv", passages: [], failure: "HTTP 503"),
        ])
        #expect(added == 1)
        #expect(found.passages.count == 1)
        let kept = found.passages[0].passage
        #expect(kept.text == Self.abstract.text && kept.title == Self.abstract.title)
        #expect(kept.details == SourceDetails(kind: .paper, published: "2024-02-01", venue: "Lancet", pmid: "37654321"))
        #expect(found.failures.map(\.source) == ["arxiv"])
        // A later round finding it by its PMID alone adds nothing.
        let again = FoundPassage(
            title: "x", url: "https://example.org/other", text: "short", details: SourceDetails(),
            identities: ["url:example.org/other", "pmid:37654321"])
        #expect(found.merge([SourceFindings(source: "pubmed", passages: [again])]) == 0)
        #expect(found.passages.count == 1)
    }

    @Test("A quoted source takes the details of the passage it was made from, its section anchor aside")
    func detailsFollowTheURL() {
        var found = FoundPassages()
        _ = found.merge([SourceFindings(source: "pubmed", passages: [Self.abstract])])
        let cited = Source(id: "1", title: "Statin therapy", url: Self.abstract.url + "#findings", snippet: "")
        #expect(found.detailed(cited).venue == "Lancet")
        #expect(found.detailed(Source(id: "2", title: "Other", url: "https://example.org/", snippet: "")).kind == nil)
    }
}
