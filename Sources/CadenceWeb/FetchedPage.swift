public import CadenceEngine
public import Foundation

/// A page read by ``PageFetcher``: where it ended up and its readable text.
///
/// ```swift
/// let page = try await PageFetcher().fetch(URL(string: "https://example.org/")!)
/// print(page.url, page.text.title, page.text.text.prefix(200))
/// ```
public struct FetchedPage: Sendable, Hashable {
    /// The URL asked for.
    public var requestedURL: URL
    /// The URL the page came from, after redirects.
    public var url: URL
    /// The response's media type (`text/html`), lowercase, without parameters.
    public var mediaType: String
    /// The body's length in bytes.
    public var byteCount: Int
    /// The title and the readable text (`HTMLTextExtractor` for HTML; plain text as it is).
    public var text: ExtractedPage
}
