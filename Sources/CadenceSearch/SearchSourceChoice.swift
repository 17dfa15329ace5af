public import CadenceEngine

/// One `--search NAME[=BASE_URL]`: a source's name and the base URL that replaces its public
/// endpoint, checked before anything runs, and made into a ``SearchSource``.
///
/// ```swift
/// let choice = try SearchSourceChoice(parsing: "searxng=http://127.0.0.1:8888")
/// let source = try choice.makeSource(corpus: corpus, environment: ProcessInfo.processInfo.environment, kit: kit)
/// ```
public struct SearchSourceChoice: Sendable, Hashable, CustomStringConvertible {
    /// The names `--search` accepts.
    public static let names = ["corpus", "searxng", "brave", "tavily", "pubmed", "arxiv"]

    public var name: String
    public var baseURL: String?

    /// Reads `NAME` or `NAME=BASE_URL`; throws for an unknown name, a base URL that is not
    /// `http(s)`, a base for `corpus`, and `searxng` without one.
    public init(parsing text: String) throws(SearchSourceError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        name = parts[0].lowercased()
        baseURL = parts.count > 1 ? String(parts[1]) : nil
        guard Self.names.contains(name) else {
            throw SearchSourceError(
                .configuration,
                "unknown search source \"\(parts[0])\"; choose from \(Self.names.joined(separator: ", "))")
        }
        if let baseURL {
            let lower = baseURL.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), baseURL.count > 8 else {
                throw SearchSourceError(
                    .configuration, "the base URL of --search \(name) must start with http:// or https://, not \"\(baseURL)\"")
            }
            if name == "corpus" {
                throw SearchSourceError(.configuration, "--search corpus takes no URL (use --corpus DIR for a folder)")
            }
        } else if name == "searxng" {
            throw SearchSourceError(
                .configuration, "--search searxng needs the instance's URL: --search searxng=http://127.0.0.1:8888")
        }
    }

    public var description: String { baseURL.map { "\(name)=\($0)" } ?? name }

    /// The environment variable holding this source's key, and whether the source needs it.
    public var keyVariable: (name: String, required: Bool)? {
        switch name {
        case "brave": ("BRAVE_API_KEY", true)
        case "tavily": ("TAVILY_API_KEY", true)
        case "pubmed": ("NCBI_API_KEY", false)
        default: nil
        }
    }

    /// Throws when a required key is missing from `environment`.
    public func validate(environment: [String: String]) throws(SearchSourceError) {
        guard let key = keyVariable, key.required else { return }
        if (environment[key.name] ?? "").isEmpty {
            throw SearchSourceError(.configuration, "--search \(name) needs an API key in \(key.name)")
        }
    }

    /// The source, with its key from `environment`, its requests through `kit`.
    public func makeSource(
        corpus: Corpus, environment: [String: String], kit: SearchKit
    ) throws(SearchSourceError) -> any SearchSource {
        try validate(environment: environment)
        let key = keyVariable.flatMap { environment[$0.name] }.flatMap { $0.isEmpty ? nil : $0 }
        switch name {
        case "searxng": return SearXNGSource(baseURL: baseURL ?? "", http: kit.http)
        case "brave": return BraveSource(apiKey: key ?? "", baseURL: baseURL, http: kit.http)
        case "tavily": return TavilySource(apiKey: key ?? "", baseURL: baseURL, http: kit.http)
        case "pubmed":
            return PubMedSource(
                apiKey: key, baseURL: baseURL, http: kit.http,
                pacer: kit.pacer(for: "pubmed", interval: PubMedSource.requestInterval(withKey: key != nil)))
        case "arxiv":
            return ArxivSource(
                baseURL: baseURL, http: kit.http, pacer: kit.pacer(for: "arxiv", interval: ArxivSource.requestInterval))
        default: return CorpusSearchSource(corpus: corpus)
        }
    }

    /// `url` ending in one `/`.
    static func withSlash(_ url: String) -> String {
        url.hasSuffix("/") ? url : url + "/"
    }
}
