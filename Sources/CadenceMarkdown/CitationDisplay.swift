/// How an answer's citations are drawn: only numbers that are sources of the answer are drawn as
/// citations (`[1]` in a plain chat, or `[9]` with five sources, stays text), and a citation whose
/// support check failed is marked.
///
/// Renderers draw blocks one by one, so the display also carries the ordinal of the first citation
/// number in the blocks being drawn; ``citationCount(in:)`` gives the offset for the next block.
///
/// ```swift
/// // Three sources; the second citation number of the answer failed its check (it cites source 2).
/// let display = CitationDisplay(sources: [1, 2, 3], unsupported: [2: 2])
/// ANSIRenderer(width: 60, colors: false, citations: display)
///     .render(MarkdownParser().parse("Resume works [1]. Bananas [2]. Nothing [9]."))
/// // "Resume works¹. Bananas²?. Nothing [9].\n"
/// ```
public struct CitationDisplay: Sendable, Hashable {
    /// The source numbers of the answer.
    public var sources: Set<Int>
    /// Citations whose check failed: ordinal (the position among all citation numbers of the
    /// answer's text, from 1) → the source number cited there. A mark is drawn only where the
    /// number at that ordinal really is that source.
    public var unsupported: [Int: Int]
    /// The ordinal of the first citation number in the blocks being drawn.
    public var firstOrdinal: Int

    public init(sources: Set<Int>, unsupported: [Int: Int] = [:], firstOrdinal: Int = 1) {
        self.sources = sources
        self.unsupported = unsupported
        self.firstOrdinal = firstOrdinal
    }

    /// How one citation number is drawn.
    public enum Mark: Sendable, Hashable {
        /// Not a source: the literal `[n]`.
        case text
        /// A citation.
        case citation
        /// A citation whose source may not support the sentence.
        case unsupported
    }

    /// How citation number `number` at position `ordinal` is drawn.
    public func mark(_ number: Int, ordinal: Int) -> Mark {
        guard sources.contains(number) else { return .text }
        return unsupported[ordinal] == number ? .unsupported : .citation
    }

    /// The same display for blocks that start `count` citation numbers later.
    public func advanced(by count: Int) -> CitationDisplay {
        var next = self
        next.firstOrdinal += count
        return next
    }

    /// The citation numbers in `blocks`, counted as renderers meet them (text order; image
    /// descriptions are drawn as plain text and do not count).
    public static func citationCount(in blocks: [Block]) -> Int {
        blocks.reduce(0) { $0 + citationCount(in: $1) }
    }

    static func citationCount(in block: Block) -> Int {
        switch block {
        case .paragraph(let inlines), .heading(_, let inlines): citationCount(in: inlines)
        case .blockQuote(let children): citationCount(in: children)
        case .list(let list): list.items.reduce(0) { $0 + citationCount(in: $1.blocks) }
        case .table(let table):
            (table.header + table.rows.flatMap { $0.prefix(table.header.count) }).reduce(0) { $0 + citationCount(in: $1) }
        case .thematicBreak, .codeBlock, .htmlBlock: 0
        }
    }

    static func citationCount(in inlines: [Inline]) -> Int {
        inlines.reduce(0) { count, inline in
            switch inline {
            case .citation(let numbers): count + numbers.count
            case .emphasis(let c), .strong(let c), .strikethrough(let c), .link(_, _, let c): count + citationCount(in: c)
            default: count
            }
        }
    }
}

/// Walks the citation numbers of one render in order. A reference type so that a renderer, a
/// value type, can advance it from deep in its recursion; each render makes its own.
final class CitationCursor: @unchecked Sendable {
    let display: CitationDisplay
    private var ordinal: Int

    init(_ display: CitationDisplay) {
        self.display = display
        ordinal = display.firstOrdinal
    }

    /// The marks for one citation node's numbers, in order.
    func marks(_ numbers: [Int]) -> [(number: Int, mark: CitationDisplay.Mark)] {
        numbers.map { number in
            defer { ordinal += 1 }
            return (number, display.mark(number, ordinal: ordinal))
        }
    }
}
