import CadenceCore
import CadenceEngine
public import CadenceSearch
public import CadenceWeb
import Foundation

/// Reads the web pages research chose, for the ``ResearchMachine``'s `readPages` action: each page
/// through the guarded `PageFetcher` (or from the `ResponseCache`), its readable text split into
/// passages and ranked for the round's queries by the same `Corpus` ranking as documents.
///
/// Pages are read at once, each within the fetcher's own limits, and all of them within the time
/// the answer's search budget has left, on the injected clock; a page refused, failed or out of
/// time comes back as a ``PageReading`` with its reason, never as an error.
///
/// ```swift
/// let reader = PageReader(fetcher: PageFetcher(policy: FetchPolicy()), clock: ContinuousClock())
/// let readings = await reader.read(["https://example.org/sse"], for: ["resume"], within: .seconds(20))
/// ```
public struct PageReader: Sendable {
    public let fetcher: PageFetcher
    /// Where read pages are kept for a while, if anywhere.
    public let cache: ResponseCache?
    /// The most passages of one page returned.
    public let passagesPerPage: Int
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A reader fetching with `fetcher`, keeping pages in `cache`, timed on `clock`.
    public init(
        fetcher: PageFetcher, cache: ResponseCache? = nil, passagesPerPage: Int = 3, clock: some Clock<Duration>
    ) {
        self.fetcher = fetcher
        self.cache = cache
        self.passagesPerPage = max(1, passagesPerPage)
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// One reading per URL, in the order of `urls`.
    public func read(_ urls: [String], for queries: [String], within timeLeft: Duration) async -> [PageReading] {
        guard !urls.isEmpty else { return [] }
        var readings: [PageReading?] = Array(repeating: nil, count: urls.count)
        await withTaskGroup(of: (Int, PageReading)?.self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask { (index, await read(url, for: queries)) }
            }
            group.addTask {
                guard (try? await sleep(max(.zero, timeLeft))) != nil else { return nil }
                return (-1, PageReading(url: ""))
            }
            for await result in group {
                guard let (index, reading) = result else { continue }
                if index < 0 { break }
                readings[index] = reading
                if !readings.contains(nil) { break }
            }
            group.cancelAll()
        }
        return zip(urls, readings).map { url, reading in
            reading ?? PageReading(url: url, failure: "the search budget ran out before the page was read")
        }
    }

    /// One page: from the cache, or fetched (and then cached), ranked for `queries`.
    func read(_ url: String, for queries: [String]) async -> PageReading {
        let key = ResponseCache.key(method: "PAGE", url: url)
        if let cached = await cache?.value(for: key), let page = Self.page(fromCache: cached) {
            return PageReading(url: url, passages: Self.rank(page, url: url, for: queries, limit: passagesPerPage))
        }
        guard let address = URL(string: url) else {
            return PageReading(url: url, failure: "not a URL: \(url)")
        }
        do {
            let fetched = try await fetcher.fetch(address)
            await cache?.store(Self.cacheText(fetched.text), for: key)
            return PageReading(
                url: url, passages: Self.rank(fetched.text, url: url, for: queries, limit: passagesPerPage))
        } catch {
            return PageReading(url: url, failure: error.description)
        }
    }

    /// The page's `limit` best passages for any of `queries`, by the corpus ranking.
    static func rank(_ page: ExtractedPage, url: String, for queries: [String], limit: Int) -> [RetrievedPassage] {
        let title = page.title.isEmpty ? url : page.title
        let document = Document(collection: "web", path: url, text: page.text, title: title, url: url)
        // Taken as a throwing function, so that a corpus whose index cannot be made leaves the page
        // unranked (its snippet kept) rather than failing the answer.
        let index: ([Document]) throws -> Corpus = Corpus.init(documents:)
        guard let corpus = try? index([document]) else { return [] }
        return corpus.search(queries.joined(separator: " "), limit: limit).map { hit in
            RetrievedPassage(
                id: 0, title: title, heading: hit.heading, url: url, text: hit.text, score: hit.score, source: "web",
                details: SourceDetails(kind: .web), snippet: hit.snippet)
        }
    }

    /// A page as the cache keeps it: its title and text as a JSON object.
    static func cacheText(_ page: ExtractedPage) -> String {
        JSONValue.object(["title": .string(page.title), "text": .string(page.text)]).jsonText
    }

    static func page(fromCache text: String) -> ExtractedPage? {
        guard let json = try? JSONValue(parsing: text), let body = json["text"]?.stringValue else { return nil }
        return ExtractedPage(title: json["title"]?.stringValue ?? "", text: body)
    }
}
