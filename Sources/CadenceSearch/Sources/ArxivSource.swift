import CadenceCore
import Foundation

/// arXiv's API, named `arxiv`: the Atom feed of `{base}query?search_query=all:…&max_results=N`.
///
/// arXiv asks for no more than one request every 3 seconds; the `pacer` keeps to it, and should be
/// shared by every arXiv source of a process.
///
/// ```swift
/// let source = ArxivSource(http: SearchHTTP(), pacer: RequestPacer(interval: .seconds(3), clock: ContinuousClock()))
/// ```
public struct ArxivSource: SearchSource {
    public static let publicBaseURL = "http://export.arxiv.org/api/"
    /// The interval arXiv's terms ask for between requests.
    public static let requestInterval: Duration = .seconds(3)
    public let name = "arxiv"
    public let baseURL: String
    let http: SearchHTTP
    let pacer: RequestPacer?

    /// A source whose `baseURL` replaces ``publicBaseURL``.
    public init(baseURL: String? = nil, http: SearchHTTP, pacer: RequestPacer?) {
        self.baseURL = SearchSourceChoice.withSlash(baseURL ?? Self.publicBaseURL)
        self.http = http
        self.pacer = pacer
    }

    public func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] {
        let body = try await http.get(
            "\(baseURL)query?search_query=all:\(SearchHTTP.queryValue(query))&max_results=\(limit)", pacer: pacer)
        let feed = try XMLNode.parse(body)
        guard feed.name == "feed" else {
            throw SearchSourceError(.unreadableBody, "arXiv's reply is <\(feed.name)>, not an Atom <feed>")
        }
        let entries = feed.children("entry")
        // arXiv reports a bad query as a feed with one entry titled "Error" whose id is an error URL.
        if let error = entries.first(where: { $0.child("id")?.text.contains("/api/errors") == true }) {
            throw SearchSourceError(.httpStatus, "arXiv said: \(error.child("summary")?.text ?? "error")")
        }
        return entries.prefix(limit).compactMap(Self.passage).enumerated().map { rank, passage in
            var passage = passage
            passage.score = 1 / Double(rank + 1)
            return passage
        }
    }

    /// One `<entry>` as a passage: its abstract, authors, date, journal reference and identifiers.
    static func passage(_ entry: XMLNode) -> RetrievedPassage? {
        guard let id = entry.child("id")?.text, let title = entry.child("title")?.text, !title.isEmpty else {
            return nil
        }
        let page = entry.children("link").first { $0.attributes["rel"] == "alternate" }?.attributes["href"] ?? id
        let identifier = id.components(separatedBy: "/abs/").last ?? id
        let published = entry.child("published")?.text.prefix(10).description
        let authors = entry.children("author").compactMap { $0.child("name")?.text }
        let venue = entry.child("arxiv:journal_ref")?.text ?? "arXiv"
        return RetrievedPassage(
            id: 0, title: title, url: page, text: entry.child("summary")?.text ?? title, score: 1,
            details: SourceDetails(
                kind: .paper, published: published, authors: authors.isEmpty ? nil : authors, venue: venue,
                arxiv: identifier, doi: entry.child("arxiv:doi")?.text))
    }
}
