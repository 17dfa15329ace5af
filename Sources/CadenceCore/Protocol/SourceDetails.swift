/// What a search knows about a source beyond its title, URL and text: the optional members of a
/// ``Source``, carried together from the search that found it to the `sources_ready` that cites it.
///
/// ```swift
/// let details = SourceDetails(kind: .paper, published: "2023-11-02", venue: "Lancet", pmid: "37910000")
/// var source = Source(id: "1", title: "A trial", url: "https://pubmed.ncbi.nlm.nih.gov/37910000/")
/// source.details = details
/// ```
public struct SourceDetails: Sendable, Hashable, Codable {
    public var kind: SourceKind?
    public var published: String?
    public var authors: [String]?
    public var venue: String?
    public var pmid: String?
    public var arxiv: String?
    public var doi: String?

    public init(
        kind: SourceKind? = nil, published: String? = nil, authors: [String]? = nil, venue: String? = nil,
        pmid: String? = nil, arxiv: String? = nil, doi: String? = nil
    ) {
        self.kind = kind
        self.published = published
        self.authors = authors
        self.venue = venue
        self.pmid = pmid
        self.arxiv = arxiv
        self.doi = doi
    }

    /// Takes from `other` each member this one lacks (the same paper found by two sources).
    public mutating func fill(from other: SourceDetails) {
        kind = kind ?? other.kind
        published = published ?? other.published
        authors = authors ?? other.authors
        venue = venue ?? other.venue
        pmid = pmid ?? other.pmid
        arxiv = arxiv ?? other.arxiv
        doi = doi ?? other.doi
    }
}

/// A source is stored and sent as one flat object: its four members beside the details' own.
extension Source: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, url, snippet
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), title: try container.decode(String.self, forKey: .title),
            url: try container.decode(String.self, forKey: .url),
            snippet: try container.decode(String.self, forKey: .snippet), details: try SourceDetails(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(url, forKey: .url)
        try container.encode(snippet, forKey: .snippet)
        try details.encode(to: encoder)
    }
}

extension Source {
    /// The title as a source list shows it: a paper's with its venue and year, as in
    /// `"Statins and myopathy (Lancet, 2023)"`; any other source's as it is.
    public var listedTitle: String {
        guard details.kind == .paper else { return title }
        let published = [details.venue, year].compactMap { $0 }.filter { !$0.isEmpty }
        return published.isEmpty ? title : "\(title) (\(published.joined(separator: ", ")))"
    }
}
