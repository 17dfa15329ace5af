public import CadenceCore
public import CadenceEngine
import Foundation

/// One passage a search found: a section of a document, a web page's snippet, a paper's abstract.
/// It is what the model is shown and what a cited source is made of.
///
/// ```swift
/// let passages = corpus.search("resume after a drop", limit: 5).map(RetrievedPassage.init)
/// ```
public struct RetrievedPassage: Sendable, Hashable {
    /// The passage's position in the corpus (the same passage found twice has the same id), or 0
    /// for a passage from outside the corpus, which ``identities`` tell apart instead.
    public var id: Int
    /// The title of the document, page or paper it comes from.
    public var title: String
    /// The heading of its section, if any.
    public var heading: String?
    /// The document URL with the section's anchor, or the page's or paper's URL.
    public var url: String
    public var text: String
    /// The search score; only comparable within one query's results from one source.
    public var score: Double
    /// The name of the search source that found it (`corpus`, `pubmed`, …).
    public var source: String
    /// What the source knows beyond the text: kind, date, authors, venue, identifiers.
    public var details: SourceDetails
    /// The index's extract of ``text`` around the words searched for (FTS5's `snippet()`, with `…`
    /// where it cuts), for a passage found in a `Corpus`; nil for other sources, whose text is
    /// their snippet already.
    public var snippet: String?

    public init(
        id: Int, title: String, heading: String? = nil, url: String, text: String, score: Double,
        source: String = "corpus", details: SourceDetails = SourceDetails(kind: .document), snippet: String? = nil
    ) {
        self.id = id
        self.title = title
        self.heading = heading
        self.url = url
        self.text = text
        self.score = score
        self.source = source
        self.details = details
        self.snippet = snippet
    }

    public init(_ hit: SearchHit) {
        self.init(
            id: hit.passageIndex, title: hit.document.title, heading: hit.heading, url: hit.url, text: hit.text,
            score: hit.score, snippet: hit.snippet)
    }

    /// "Title — Heading", or the title alone when the heading repeats it.
    public var label: String {
        guard let heading, !heading.isEmpty, heading != title else { return title }
        return "\(title) — \(heading)"
    }

    /// The keys under which two results are the same source: a corpus passage by its position; any
    /// other by its URL (without fragment, scheme case or trailing slash), its DOI and its PMID, so
    /// that the same paper found by PubMed and by a web search is kept once.
    public var identities: [String] {
        if source == "corpus" { return ["corpus:\(id)"] }
        var keys = ["url:" + Self.normalized(url)]
        if let doi = details.doi, !doi.isEmpty { keys.append("doi:" + doi.lowercased()) }
        if let pmid = details.pmid, !pmid.isEmpty { keys.append("pmid:" + pmid) }
        return keys
    }

    /// `url` lowercased up to its path, without `#fragment`, `www.` or a trailing slash, and with
    /// `http` and `https` the same.
    static func normalized(_ url: String) -> String {
        var text = Substring(url.trimmingCharacters(in: .whitespacesAndNewlines))
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        for scheme in ["https://", "http://"] where text.lowercased().hasPrefix(scheme) {
            text = text.dropFirst(scheme.count)
        }
        let slash = text.firstIndex(of: "/") ?? text.endIndex
        var host = text[..<slash].lowercased()
        if host.hasPrefix("www.") { host.removeFirst(4) }
        var path = String(text[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        return host + path
    }
}
