/// What syntax a parse accepts.
///
/// - `commonMark`: CommonMark 0.31.2 only, as the spec's own test runner uses it.
/// - `gfm` (strict): CommonMark plus the GFM extensions (tables, strikethrough, autolinks, task lists),
///   as `cmark-gfm -e table -e strikethrough -e autolink -e tasklist`. The fifth GFM extension,
///   disallowed raw HTML, is an output concern: `HTMLRenderer(tagFilter:)`.
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
    /// Parses `[n]` and `[n][m]` as citations; a numeric label then never resolves as a reference link.
    public var citations: Bool

    public init(
        tables: Bool = true, strikethrough: Bool = true, autolinks: Bool = true, taskLists: Bool = true,
        citations: Bool = true
    ) {
        self.tables = tables
        self.strikethrough = strikethrough
        self.autolinks = autolinks
        self.taskLists = taskLists
        self.citations = citations
    }

    /// GFM with citations: the mode for model answers.
    public static let `default` = MarkdownOptions()
    /// CommonMark + GFM, no citations: the `--strict` mode.
    public static let gfm = MarkdownOptions(citations: false)
    /// Plain CommonMark 0.31.2, no extensions.
    public static let commonMark = MarkdownOptions(
        tables: false, strikethrough: false, autolinks: false, taskLists: false, citations: false)
}
