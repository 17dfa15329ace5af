/// What a search knows about a source beyond its title, URL and text: the optional members of a
/// ``Source``, carried together from the search that found it to the `sources_ready` that cites it.
///
/// ```swift
/// let details = SourceDetails(kind: .paper, published: "2023-11-02", venue: "Lancet", pmid: "37910000")
/// var source = Source(id: "1", title: "A trial", url: "https://pubmed.ncbi.nlm.nih.gov/37910000/")
/// source.details = details
/// ```
public struct SourceDetails: Sendable, Hashable {
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

extension Source {
    /// The optional members together; setting it replaces all seven.
    public var details: SourceDetails {
        get {
            SourceDetails(
                kind: kind, published: published, authors: authors, venue: venue, pmid: pmid, arxiv: arxiv, doi: doi)
        }
        set {
            (kind, published, authors, venue, pmid, arxiv, doi) = (
                newValue.kind, newValue.published, newValue.authors, newValue.venue, newValue.pmid, newValue.arxiv,
                newValue.doi
            )
        }
    }
}

extension Source {
    /// The title as a source list shows it: a paper's with its venue and year, as in
    /// `"Statins and myopathy (Lancet, 2023)"`; any other source's as it is.
    public var listedTitle: String {
        guard kind == .paper else { return title }
        let published = [venue, year].compactMap { $0 }.filter { !$0.isEmpty }
        return published.isEmpty ? title : "\(title) (\(published.joined(separator: ", ")))"
    }
}
