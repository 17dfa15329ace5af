/// One retrieved source an answer can cite as `[n]`.
///
/// ```swift
/// let source = Source(id: "1", title: "SSE", url: "https://html.spec.whatwg.org/", snippet: "…")
/// ```
public struct Source: Sendable, Hashable, Codable, Identifiable {
    /// The citation number as a string (`"1"` for `[1]`), or any stable identifier.
    public var id: String
    public var title: String
    public var url: String
    public var snippet: String

    public init(id: String, title: String, url: String, snippet: String = "") {
        self.id = id
        self.title = title
        self.url = url
        self.snippet = snippet
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
