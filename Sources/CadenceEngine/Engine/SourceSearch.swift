public import CadenceCore

/// The searches the ``CorpusEngine`` runs each round when it is given sources beyond its own
/// documents: a web search, PubMed, arXiv. Every source takes the round's queries at once, and
/// each reports what it found or why it failed. `CadenceSearch`'s fanout implements it, so the
/// engine depends on no network code.
///
/// ```swift
/// struct Notes: SourceSearch {
///     let sourceNames = ["notes"]
///     func findings(for queries: [String], limit: Int, timeLeft: Duration) async -> [SourceFindings] {
///         [SourceFindings(source: "notes", passages: [])]
///     }
/// }
/// let engine = CorpusEngine(corpus: try Corpus.bundled(), sources: Notes())
/// ```
public protocol SourceSearch: Sendable {
    /// The sources' names, in the order their events are sent (`searxng`, `pubmed`).
    var sourceNames: [String] { get }

    /// Runs every query on every source concurrently, giving up on a source after `timeLeft`; one
    /// ``SourceFindings`` per source, in the order of ``sourceNames``. At most `limit` passages per
    /// query and source.
    func findings(for queries: [String], limit: Int, timeLeft: Duration) async -> [SourceFindings]
}

/// What one source found for a round's queries, or why it failed.
///
/// ```swift
/// let failed = SourceFindings(source: "pubmed", passages: [], failure: "HTTP 503 Service Unavailable")
/// ```
public struct SourceFindings: Sendable, Hashable {
    /// The source's name, as `searching`, `search_complete` and `search_failed` carry it.
    public var source: String
    /// What it found over all the queries, each passage once.
    public var passages: [FoundPassage]
    /// Why the source failed, when every one of its queries failed.
    public var failure: String?

    public init(source: String, passages: [FoundPassage], failure: String? = nil) {
        self.source = source
        self.passages = passages
        self.failure = failure
    }
}

/// One passage a source found: a page's snippet, a paper's abstract, a section of a document.
///
/// ```swift
/// let paper = FoundPassage(
///     title: "Statins and myopathy", url: "https://pubmed.ncbi.nlm.nih.gov/37654321/",
///     text: "Most muscle symptoms were not caused by the statin.",
///     details: SourceDetails(kind: .paper, published: "2023-09-02", venue: "Lancet", pmid: "37654321"),
///     identities: ["url:pubmed.ncbi.nlm.nih.gov/37654321", "pmid:37654321"])
/// ```
public struct FoundPassage: Sendable, Hashable {
    /// The title a source list shows (with the section's heading, for a document).
    public var title: String
    public var url: String
    public var text: String
    /// Kind, date, authors, venue and identifiers, as far as the source knows them.
    public var details: SourceDetails
    /// The keys under which two passages are the same source (its URL, DOI, PMID): a passage that
    /// shares one with a passage found before is merged into it.
    public var identities: [String]

    public init(title: String, url: String, text: String, details: SourceDetails, identities: [String]) {
        self.title = title
        self.url = url
        self.text = text
        self.details = details
        self.identities = identities
    }
}
