import CadenceCore

/// The Brave Search API, `GET https://api.search.brave.com/res/v1/web/search?q=…` with the key in
/// `X-Subscription-Token`, named `brave`.
///
/// ```swift
/// let source = BraveSource(apiKey: key, http: SearchHTTP())
/// ```
public struct BraveSource: SearchSource {
    public static let publicBaseURL = "https://api.search.brave.com/res/v1/"
    public let name = "brave"
    let service: KeyedService
    /// Where requests go: ``publicBaseURL`` unless the source was made with another.
    public var baseURL: String { service.baseURL }

    /// A source with `apiKey`; `baseURL` replaces ``publicBaseURL``.
    public init(apiKey: String, baseURL: String? = nil, http: SearchHTTP) {
        service = KeyedService(apiKey: apiKey, baseURL: baseURL, publicBaseURL: Self.publicBaseURL, http: http)
    }

    public func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] {
        let count = max(1, min(limit, 20))
        let body = try await service.http.get(
            "\(service.baseURL)web/search?q=\(SearchHTTP.queryValue(query))&count=\(count)",
            headers: [("X-Subscription-Token", service.apiKey)])
        let json = try SearchHTTP.json(body, from: "Brave")
        // A query with no web results has no "web" member at all.
        guard let web = json["web"] else { return [] }
        return try WebResult.passages(web["results"], service: "Brave", member: "web.results", limit: limit) { item in
            WebResult(
                title: item["title"]?.stringValue, url: item["url"]?.stringValue,
                text: item["description"]?.stringValue, published: item["page_age"]?.stringValue,
                venue: item["profile"]?["name"]?.stringValue)
        }
    }
}
