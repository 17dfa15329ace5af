import CadenceCore

/// One web search hit as the web APIs give it, before it becomes a passage: results without a
/// title or an `http(s)` URL are dropped, and their rank gives their score (the APIs' own scores,
/// where they have one, are not comparable across services).
///
/// ```swift
/// let passages = WebResult.passages([WebResult(title: "SSE", url: "https://example.com", text: "…")])
/// ```
struct WebResult {
    var title: String?
    var url: String?
    var text: String?
    var published: String?
    var venue: String?

    /// The array `results` of a service's reply, each read by `read`, as passages; throws when the
    /// array is missing (the reply is not in the service's format).
    static func passages(
        _ results: JSONValue?, service: String, member: String, limit: Int, _ read: (JSONValue) -> WebResult
    ) throws -> [RetrievedPassage] {
        guard let results = results?.arrayValue else {
            throw SearchSourceError(.unreadableBody, "\(service)'s reply has no \"\(member)\" array")
        }
        return passages(results.prefix(limit).map(read))
    }

    /// The usable results as passages, scored 1, 1/2, 1/3, … by rank.
    static func passages(_ results: [WebResult]) -> [RetrievedPassage] {
        var passages: [RetrievedPassage] = []
        for result in results {
            guard let url = result.url, url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://"),
                let title = result.title, !title.isEmpty
            else { continue }
            let published = result.published.flatMap { $0.isEmpty ? nil : $0 }
            passages.append(
                RetrievedPassage(
                    id: 0, title: title, url: url, text: result.text ?? "", score: 1 / Double(passages.count + 1),
                    details: SourceDetails(kind: .web, published: published, venue: result.venue)))
        }
        return passages
    }
}
