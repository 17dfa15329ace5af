import CadenceCore

/// A SearXNG instance's JSON API, `GET {base}/search?q=…&format=json`, named `searxng`. SearXNG is
/// self-hosted, so its base URL is always given.
///
/// ```swift
/// let source = SearXNGSource(baseURL: "http://127.0.0.1:8888", http: SearchHTTP())
/// ```
public struct SearXNGSource: SearchSource {
    public let name = "searxng"
    public let baseURL: String
    let http: SearchHTTP

    public init(baseURL: String, http: SearchHTTP) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
    }

    public func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] {
        let body = try await http.get("\(baseURL)/search?q=\(SearchHTTP.queryValue(query))&format=json")
        let json = try SearchHTTP.json(body, from: "SearXNG")
        return try WebResult.passages(json["results"], service: "SearXNG", member: "results", limit: limit) { item in
            WebResult(
                title: item["title"]?.stringValue, url: item["url"]?.stringValue, text: item["content"]?.stringValue,
                published: item["publishedDate"]?.stringValue, venue: nil)
        }
    }
}
