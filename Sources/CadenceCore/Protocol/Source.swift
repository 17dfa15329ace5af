/// One retrieved source an answer can cite as `[n]`.
///
/// The four first members are always there; the others only when the search that found the source
/// knew them (a paper from PubMed has a venue, authors and a PMID; a corpus document has none).
///
/// ```swift
/// let paper = Source(
///     id: "1", title: "Server-sent events at scale", url: "https://pubmed.ncbi.nlm.nih.gov/38000001/",
///     details: SourceDetails(kind: .paper, published: "2024-05-01", venue: "Nature", pmid: "38000001"))
/// paper.year  // "2024"
/// ```
@dynamicMemberLookup
public struct Source: Sendable, Hashable, Identifiable {
    /// The citation number as a string (`"1"` for `[1]`), or any stable identifier.
    public var id: String
    public var title: String
    public var url: String
    public var snippet: String
    /// What the search knew beyond those four, each member read as the source's own
    /// (`source.venue`, `source.kind`).
    public var details: SourceDetails

    public init(id: String, title: String, url: String, snippet: String = "", details: SourceDetails = SourceDetails()) {
        self.id = id
        self.title = title
        self.url = url
        self.snippet = snippet
        self.details = details
    }

    /// A member of ``details``, as `source.published` reads and sets it.
    public subscript<Value>(dynamicMember member: WritableKeyPath<SourceDetails, Value>) -> Value {
        get { details[keyPath: member] }
        set { details[keyPath: member] = newValue }
    }

    /// The year of ``SourceDetails/published`` (its first four characters when they are digits), for source lists.
    public var year: String? { Self.year(of: details.published) }

    /// The year a `published` date starts with, if it starts with four digits.
    public static func year(of published: String?) -> String? {
        guard let published, published.count >= 4 else { return nil }
        let year = published.prefix(4)
        return year.allSatisfy(\.isNumber) ? String(year) : nil
    }
}

/// What kind of thing a ``Source`` is. Any string decodes, so a newer server's kinds are kept.
///
/// ```swift
/// let kind: SourceKind = .paper   // "paper" on the wire
/// ```
public struct SourceKind: RawRepresentable, Sendable, Hashable, Codable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A document of the local corpus.
    public static let document = SourceKind(rawValue: "document")
    /// A web page.
    public static let web = SourceKind(rawValue: "web")
    /// A scholarly paper (PubMed, arXiv).
    public static let paper = SourceKind(rawValue: "paper")

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What the server sends with `complete`: the final sources, metadata and follow-up questions.
public struct Completion: Sendable, Hashable {
    public var sources: [Source]
    /// Timings (milliseconds), counts and engine details; free-form so servers can add fields.
    public var metadata: [String: JSONValue]
    public var followUps: [String]

    public init(sources: [Source] = [], metadata: [String: JSONValue] = [:], followUps: [String] = []) {
        self.sources = sources
        self.metadata = metadata
        self.followUps = followUps
    }
}
