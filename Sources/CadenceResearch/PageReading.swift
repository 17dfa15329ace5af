public import CadenceSearch

/// What reading one web page gave: its passages ranked for the round's queries, best first, or why
/// it was not read (refused by the fetch guard, failed, or out of time). A page that was read but
/// matched none of the queries has no passages and no failure.
///
/// ```swift
/// let reading = PageReading(url: "https://example.org/sse", passages: [passage])
/// let skipped = PageReading(url: "http://10.0.0.1/", failure: "refused http://10.0.0.1/: 10.0.0.1 is private")
/// ```
public struct PageReading: Sendable, Hashable {
    /// The URL asked for (the search result's).
    public var url: String
    /// The page's best passages for the queries, best first.
    public var passages: [RetrievedPassage]
    /// Why the page was not read, if it was not.
    public var failure: String?

    public init(url: String, passages: [RetrievedPassage] = [], failure: String? = nil) {
        self.url = url
        self.passages = passages
        self.failure = failure
    }
}
