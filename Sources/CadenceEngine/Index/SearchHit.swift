/// One ranked passage returned by ``Corpus/search(_:limit:)``.
///
/// ```swift
/// for hit in corpus.search("resume after a dropped connection", limit: 3) {
///     print(String(format: "%.2f", hit.score), hit.document.title, hit.url)
/// }
/// ```
public struct SearchHit: Sendable, Hashable {
    /// The document the passage comes from.
    public var document: Document
    /// The heading of the passage's section, if it has one.
    public var heading: String?
    /// The passage's text, blocks separated by blank lines.
    public var text: String
    /// FTS5's `snippet()` of the passage's text: a few dozen words around the query words it
    /// matched, cut with `…`; empty for a hit that did not come from a search.
    public var snippet: String
    /// The document's URL with the section's anchor, such as `cadence://corpus/cadence/resume.md#last-event-id`.
    public var url: String
    /// The BM25 score; higher is more relevant, and only positive scores are returned.
    public var score: Double

    /// The passage's position in the corpus.
    package var passageIndex: Int
}
