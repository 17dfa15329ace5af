import CadenceCore

/// PubMed through NCBI's E-utilities, named `pubmed`: `esearch` gives the ids of the best matches,
/// `efetch` their titles, abstracts, journals, dates, authors and DOIs as XML.
///
/// NCBI asks for at most 3 requests a second, or 10 with an API key; the `pacer` keeps to it, and
/// should be shared by every PubMed source of a process.
///
/// ```swift
/// let source = PubMedSource(apiKey: nil, http: SearchHTTP(), pacer: RequestPacer(interval: .milliseconds(334), clock: ContinuousClock()))
/// ```
public struct PubMedSource: SearchSource {
    public static let publicBaseURL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/"
    public let name = "pubmed"
    public let baseURL: String
    let apiKey: String?
    let http: SearchHTTP
    let pacer: RequestPacer?

    /// The interval NCBI's terms ask for between requests: a third of a second, a tenth with a key.
    public static func requestInterval(withKey: Bool) -> Duration {
        withKey ? .milliseconds(100) : .milliseconds(334)
    }

    /// A source with an optional `apiKey`; `baseURL` replaces ``publicBaseURL``.
    public init(apiKey: String?, baseURL: String? = nil, http: SearchHTTP, pacer: RequestPacer?) {
        self.apiKey = apiKey
        self.baseURL = SearchSourceChoice.withSlash(baseURL ?? Self.publicBaseURL)
        self.http = http
        self.pacer = pacer
    }

    public func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] {
        let key = apiKey.map { "&api_key=\(SearchHTTP.queryValue($0))" } ?? ""
        let found = try await http.get(
            "\(baseURL)esearch.fcgi?db=pubmed&term=\(SearchHTTP.queryValue(query))&retmax=\(limit)&retmode=json"
                + key, pacer: pacer)
        let json = try SearchHTTP.json(found, from: "PubMed esearch")
        if let error = json["esearchresult"]?["ERROR"]?.stringValue ?? json["error"]?.stringValue {
            throw SearchSourceError(.unreadableBody, "PubMed esearch said: \(error)")
        }
        guard let ids = json["esearchresult"]?["idlist"]?.arrayValue?.compactMap(\.stringValue) else {
            throw SearchSourceError(.unreadableBody, "PubMed esearch's reply has no \"esearchresult.idlist\"")
        }
        guard !ids.isEmpty else { return [] }
        let articles = try await http.get(
            "\(baseURL)efetch.fcgi?db=pubmed&id=\(ids.prefix(limit).joined(separator: ","))&retmode=xml" + key,
            pacer: pacer)
        let papers = try PubMedArticle.parse(articles)
        // efetch returns the articles in the order asked; keep esearch's relevance order regardless.
        let byID = Dictionary(papers.map { ($0.pmid, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }.enumerated().map { rank, paper in paper.passage(score: 1 / Double(rank + 1)) }
    }
}
