/// The readable text of a page or file: its title (empty when it has none) and its content as
/// Markdown-ish plain text (headings as `#`, blank lines between paragraphs, `-` and `1.` list
/// items, table rows as `| a | b |`), cleaned of control characters (``UntrustedText``).
///
/// ```swift
/// let page = HTMLTextExtractor().extract(Array("<title>T</title><h1>Hi</h1><p>a</p>".utf8))
/// page.title  // "T"
/// page.text   // "# Hi\n\na"
/// ```
public struct ExtractedPage: Sendable, Hashable {
    public var title: String
    public var text: String

    public init(title: String, text: String) {
        self.title = UntrustedText.cleaned(title)
        self.text = UntrustedText.cleaned(text)
    }

    /// A plain-text page: its bytes decoded as `charset` says (see ``PageCharset``), with no title.
    public init(plainText bytes: [UInt8], charset: String? = nil) {
        self.init(title: "", text: PageCharset.decode(bytes, declared: charset, isHTML: false))
    }
}
