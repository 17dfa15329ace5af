/// What syntax a parse accepts.
///
/// - `commonMark`: CommonMark 0.31.2 only, as the spec's own test runner uses it.
/// - `gfm` (strict): CommonMark plus the GFM extensions (tables, strikethrough, autolinks, task lists,
///   disallowed raw HTML), as `cmark-gfm -e table -e strikethrough -e autolink -e tagfilter -e tasklist`.
/// - `default`: GFM plus citations `[1]`, for model answers.
///
/// ```swift
/// var document = MarkdownDocument(options: .gfm)
/// ```
public struct MarkdownOptions: Sendable, Hashable {
    public var tables: Bool
    public var strikethrough: Bool
    public var autolinks: Bool
    public var taskLists: Bool
    /// Escapes `<script>`, `<style>`, `<title>`… in raw HTML output (GFM "disallowed raw HTML").
    public var tagFilter: Bool
    /// Parses `[n]` and `[n][m]` as citations; a numeric label then never resolves as a reference link.
    public var citations: Bool

    public init(
        tables: Bool = true, strikethrough: Bool = true, autolinks: Bool = true, taskLists: Bool = true,
        tagFilter: Bool = true, citations: Bool = true
    ) {
        self.tables = tables
        self.strikethrough = strikethrough
        self.autolinks = autolinks
        self.taskLists = taskLists
        self.tagFilter = tagFilter
        self.citations = citations
    }

    /// GFM with citations: the mode for model answers.
    public static let `default` = MarkdownOptions()
    /// CommonMark + GFM, no citations: the `--strict` mode.
    public static let gfm = MarkdownOptions(citations: false)
    /// Plain CommonMark 0.31.2, no extensions.
    public static let commonMark = MarkdownOptions(
        tables: false, strikethrough: false, autolinks: false, taskLists: false, tagFilter: false, citations: false)
}
