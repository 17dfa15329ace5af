/// The readable text of an HTML page, for search and for a model to read: an ``ExtractedPage``.
///
/// It keeps headings, paragraphs, lists and tables in reading order and drops the rest of the
/// page: scripts, styles, navigation, headers, footers, asides, forms and their controls,
/// comments, `noscript`, `template` and `svg`. Entities are decoded; the charset comes from the
/// byte-order mark, the HTTP header's charset or a `<meta>` declaration (``PageCharset``).
///
/// It reads the page once, with no tree: the work grows with the size of the page and nothing else,
/// whatever the markup (unclosed elements, stray end tags, unterminated comments and scripts are
/// read as a browser would). It does no I/O.
///
/// ```swift
/// let html = Array("<html><head><title>Menu &amp; more</title><script>x()</script></head>"
///     + "<body><nav>Home</nav><h2>Soup</h2><ul><li>Leek</li><li>Potato</li></ul></body></html>".utf8)
/// let page = HTMLTextExtractor().extract(html)
/// page.title  // "Menu & more"
/// page.text   // "## Soup\n\n- Leek\n- Potato"
/// ```
public struct HTMLTextExtractor: Sendable {
    public init() {}

    /// The readable text of `html`.
    ///
    /// - Parameters:
    ///   - html: the page's bytes, as received.
    ///   - charset: the `charset` parameter of the HTTP `Content-Type` header, if there was one.
    public func extract(_ html: [UInt8], charset: String? = nil) -> ExtractedPage {
        extractCountingWork(html, charset: charset).page
    }

    /// The readable text of an HTML string.
    public func extract(_ html: String) -> ExtractedPage {
        extract(Array(html.utf8), charset: "utf-8")
    }

    /// The page and the work done for it (bytes looked at and tokens handled), which a test holds
    /// to a constant times the input.
    package func extractCountingWork(_ html: [UInt8], charset: String?) -> (page: ExtractedPage, work: Int) {
        let decoded = Array(PageCharset.decode(html, declared: charset, isHTML: true).utf8)
        var tokenizer = HTMLTokenizer(decoded)
        tokenizer.wantsAttributes = []
        var writer = HTMLTextWriter()
        while let token = tokenizer.next() { writer.consume(token) }
        let (title, text) = writer.finish()
        let page = ExtractedPage(
            title: String(decoding: title, as: UTF8.self), text: String(decoding: text, as: UTF8.self))
        return (page, tokenizer.work + writer.work)
    }
}
