/// A block-level node of a markdown tree: a value, `Sendable` and `Hashable`.
///
/// Blocks nest: a block quote or a list item holds other blocks; leaf blocks hold inlines or text.
///
/// ```swift
/// let tree = MarkdownParser().parse("# Title\n\nHello *world*\n")
/// if case .heading(let level, let content) = tree.blocks[0] { print(level, content) }
/// ```
public enum Block: Sendable, Hashable {
    // Small payloads are stored in the value itself; only the large ones are boxed (`indirect`),
    // so that the most common blocks cost no allocation of their own.

    /// A paragraph of inline content.
    case paragraph([Inline])
    /// An ATX or setext heading, level 1 to 6.
    case heading(level: Int, [Inline])
    /// A thematic break (`---`).
    case thematicBreak
    /// A block quote holding blocks.
    case blockQuote([Block])
    /// A bullet or ordered list.
    indirect case list(MarkdownList)
    /// A fenced or indented code block.
    indirect case codeBlock(CodeBlock)
    /// Raw HTML, as written (each line without its line ending).
    case htmlBlock(String)
    /// A GFM table.
    indirect case table(Table)
}

/// A bullet or ordered list.
///
/// ```swift
/// if case .list(let list) = block, list.isTight { print(list.items.count) }
/// ```
public struct MarkdownList: Sendable, Hashable {
    /// Bullet (`-`, `+`, `*`) or ordered (`1.`, `1)`).
    public enum Kind: Sendable, Hashable {
        case bullet(marker: Character)
        case ordered(start: Int, delimiter: Character)
    }

    public var kind: Kind
    /// A tight list renders its paragraphs without `<p>` tags.
    public var isTight: Bool
    public var items: [ListItem]

    public init(kind: Kind, isTight: Bool, items: [ListItem]) {
        self.kind = kind
        self.isTight = isTight
        self.items = items
    }
}

/// One item of a list; `checkbox` is set for a GFM task list item (`- [x] done`).
///
/// ```swift
/// let item = ListItem(checkbox: true, blocks: [.paragraph([.text("done")])])
/// ```
public struct ListItem: Sendable, Hashable {
    /// `nil` for a plain item, `true` for `[x]`, `false` for `[ ]`.
    public var checkbox: Bool?
    public var blocks: [Block]

    public init(checkbox: Bool? = nil, blocks: [Block]) {
        self.checkbox = checkbox
        self.blocks = blocks
    }
}

/// A code block; `info` is the fence's info string (`swift` for a fence opened with three backticks
/// and `swift`), `nil` when indented.
///
/// ```swift
/// let code = CodeBlock(info: "swift", code: "print(1)\n")
/// ```
public struct CodeBlock: Sendable, Hashable {
    public var info: String?
    /// The code, each line ending in a newline.
    public var code: String
    /// `true` while a streamed fence has not seen its closing fence yet (only in a tail snapshot).
    public var isOpen: Bool

    public init(info: String?, code: String, isOpen: Bool = false) {
        self.info = info
        self.code = code
        self.isOpen = isOpen
    }

    /// The first word of the info string, the usual language tag.
    public var language: String? {
        guard let info, let word = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return nil }
        return String(word)
    }
}

/// A GFM table: a header row, alignments and body rows, each cell holding inlines.
///
/// ```swift
/// let table = Table(alignments: [.left], header: [[.text("A")]], rows: [[[.text("1")]]])
/// ```
public struct Table: Sendable, Hashable {
    public enum Alignment: Sendable, Hashable {
        case none, left, center, right
    }

    public var alignments: [Alignment]
    public var header: [[Inline]]
    public var rows: [[[Inline]]]
    /// `true` for a pipe line in a streamed tail that may become a table header (no delimiter row yet).
    public var isPending: Bool

    public init(alignments: [Alignment], header: [[Inline]], rows: [[[Inline]]], isPending: Bool = false) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
        self.isPending = isPending
    }
}
