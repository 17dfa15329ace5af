/// One place research can search: the local corpus, a web search API, PubMed, arXiv.
///
/// A source runs one query and returns its passages best first, or throws a
/// ``SearchSourceError`` that says what went wrong (the research reports it as `search_failed`
/// and goes on with the other sources). Time limits are not the source's business: the
/// ``SearchFanout`` that runs it cuts it off and reports a timeout.
///
/// ```swift
/// struct Notes: SearchSource {
///     let name = "notes"
///     func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] { [] }
/// }
/// ```
public protocol SearchSource: Sendable {
    /// The name that `searching`, `search_complete` and `search_failed` carry (`pubmed`).
    var name: String { get }

    /// The `limit` best passages for `query`, best first; `[]` when nothing matched.
    func search(_ query: String, limit: Int) async throws -> [RetrievedPassage]
}
