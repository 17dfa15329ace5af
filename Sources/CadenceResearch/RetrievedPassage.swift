public import CadenceEngine

/// One passage found by a search round: what the model is shown and what a source is made of.
///
/// ```swift
/// let passages = corpus.search("resume after a drop", limit: 5).map(RetrievedPassage.init)
/// ```
public struct RetrievedPassage: Sendable, Hashable {
    /// The passage's position in the corpus: the same passage found twice has the same id.
    public var id: Int
    /// The title of the document it comes from.
    public var title: String
    /// The heading of its section, if any.
    public var heading: String?
    /// The document URL with the section's anchor.
    public var url: String
    public var text: String
    /// The search score; only comparable within one query's results.
    public var score: Double

    public init(id: Int, title: String, heading: String? = nil, url: String, text: String, score: Double) {
        self.id = id
        self.title = title
        self.heading = heading
        self.url = url
        self.text = text
        self.score = score
    }

    public init(_ hit: SearchHit) {
        self.init(
            id: hit.passageIndex, title: hit.document.title, heading: hit.heading, url: hit.url, text: hit.text,
            score: hit.score)
    }

    /// "Title — Heading", or the title alone when the heading repeats it.
    public var label: String {
        guard let heading, !heading.isEmpty, heading != title else { return title }
        return "\(title) — \(heading)"
    }
}
