import CadenceCore

/// The Tavily search API, `POST https://api.tavily.com/search` with the key as a bearer token,
/// named `tavily`.
///
/// ```swift
/// let source = TavilySource(apiKey: key, http: SearchHTTP())
/// ```
public struct TavilySource: SearchSource {
    public static let publicBaseURL = "https://api.tavily.com/"
    public let name = "tavily"
    let service: KeyedService
    /// Where requests go: ``publicBaseURL`` unless the source was made with another.
    public var baseURL: String { service.baseURL }

    /// A source with `apiKey`; `baseURL` replaces ``publicBaseURL``.
    public init(apiKey: String, baseURL: String? = nil, http: SearchHTTP) {
        service = KeyedService(apiKey: apiKey, baseURL: baseURL, publicBaseURL: Self.publicBaseURL, http: http)
    }

    public func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] {
        let request: JSONValue = [
            "query": .string(query), "max_results": .number(Double(max(1, min(limit, 20)))),
            "search_depth": "basic",
        ]
        let body = try await service.http.post(
            "\(service.baseURL)search", json: request.jsonText, headers: [("Authorization", "Bearer \(service.apiKey)")])
        let json = try SearchHTTP.json(body, from: "Tavily")
        return try WebResult.passages(json["results"], service: "Tavily", member: "results", limit: limit) { item in
            WebResult(
                title: item["title"]?.stringValue, url: item["url"]?.stringValue, text: item["content"]?.stringValue,
                published: item["published_date"]?.stringValue, venue: nil)
        }
    }
}
