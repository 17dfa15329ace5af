/// A mutable block under construction in `BlockParser`. Closed nodes are never mutated again,
/// so a parser snapshot shares them and clones only the open chain.
///
/// The stored properties are `@exclusivity(unchecked)`: a node is reached only from its parser or
/// materializer, one access at a time, and the run-time check of every access to a class's
/// property took about 4 % of a full parse's instructions.
final class BlockNode {
    enum Kind { case document, blockQuote, list, item, paragraph, heading, thematicBreak, codeBlock, htmlBlock, table }

    struct ListData: Equatable {
        var isOrdered = false
        var bulletChar: UInt8 = 0
        var start = 1
        var delimiter: UInt8 = 0
        var padding = 0
        var markerOffset = 0

        func matches(_ other: ListData) -> Bool {
            isOrdered == other.isOrdered && bulletChar == other.bulletChar && delimiter == other.delimiter
        }
    }

    struct TableData {
        var alignments: [Table.Alignment] = []
        var header: [[UInt8]] = []
        var rows: [[[UInt8]]] = []
    }

    @exclusivity(unchecked) var kind: Kind
    @exclusivity(unchecked) var children: [BlockNode] = []
    @exclusivity(unchecked) var isOpen = true
    @exclusivity(unchecked) var lastLineBlank = false
    @exclusivity(unchecked) var startLine: Int
    @exclusivity(unchecked) var endLine = 0
    /// Raw text of paragraphs, headings, code and HTML blocks, lines joined with `\n`. Closing a block
    /// trims it by moving `textStart` and `textEnd` rather than copying, so a tail snapshot that closes
    /// a clone of an open block shares its bytes (see `text`).
    @exclusivity(unchecked) var content: [UInt8] = []
    /// Where the block's text starts in `content`: after a fence's info line or link reference definitions.
    @exclusivity(unchecked) var textStart = 0
    /// Where the block's text ends in `content`, or -1 for the end: before an HTML block's trailing blank lines.
    @exclusivity(unchecked) var textEnd = -1
    /// In a tail snapshot, the last line's part (followed by a line ending) when it was kept out of
    /// `content` so that the open block's bytes are not copied: see `BlockNode+Text.swift`.
    @exclusivity(unchecked) var pendingPart: ArraySlice<UInt8> = []
    @exclusivity(unchecked) var hasPendingPart = false
    /// Where a paragraph's first line starts: with `startLine`, it tells streamed reads of the same paragraph apart.
    @exclusivity(unchecked) var startOffset = 0
    /// In a tail snapshot, the open chain down to the block that gives the tail's last value.
    @exclusivity(unchecked) var isSpine = false
    @exclusivity(unchecked) var level = 0
    @exclusivity(unchecked) var listData = ListData()
    @exclusivity(unchecked) var isTight = true
    /// In a list item, the lines of each paragraph that held only link reference definitions and was
    /// removed: a definition is a block still, so its lines count for the list's looseness.
    @exclusivity(unchecked) var definitionLines: [ClosedRange<Int>] = []
    @exclusivity(unchecked) var isFenced = false
    @exclusivity(unchecked) var fenceChar: UInt8 = 0
    @exclusivity(unchecked) var fenceLength = 0
    @exclusivity(unchecked) var fenceOffset = 0
    @exclusivity(unchecked) var closedByFence = false
    @exclusivity(unchecked) var info: [UInt8] = []
    @exclusivity(unchecked) var htmlType = 0
    @exclusivity(unchecked) var table = TableData()
    @exclusivity(unchecked) var checkbox: Bool?
    /// The materialized value of a closed node, and the reference labels it looked up in vain.
    @exclusivity(unchecked) var cachedValue: Block?
    /// The materialized value of a closed list item.
    @exclusivity(unchecked) var cachedItem: ListItem?
    @exclusivity(unchecked) var cachedMisses: [String] = []
    /// A copy made for a tail snapshot: still open in the live parser, so never cached.
    @exclusivity(unchecked) var isSnapshotCopy = false

    init(_ kind: Kind, startLine: Int) {
        self.kind = kind
        self.startLine = startLine
    }

    /// A copy of this node whose open descendants are copied too; closed ones are shared.
    func cloneOpenChain(asSnapshot: Bool) -> BlockNode {
        let copy = BlockNode(kind, startLine: startLine)
        copy.children = children
        copy.isOpen = isOpen
        copy.lastLineBlank = lastLineBlank
        copy.endLine = endLine
        copy.content = content
        copy.textStart = textStart
        copy.textEnd = textEnd
        copy.startOffset = startOffset
        copy.level = level
        copy.listData = listData
        copy.isTight = isTight
        copy.definitionLines = definitionLines
        copy.isFenced = isFenced
        copy.fenceChar = fenceChar
        copy.fenceLength = fenceLength
        copy.fenceOffset = fenceOffset
        copy.closedByFence = closedByFence
        copy.info = info
        copy.htmlType = htmlType
        copy.table = table
        copy.checkbox = checkbox
        copy.isSnapshotCopy = asSnapshot || isSnapshotCopy
        if let last = children.last, last.isOpen {
            copy.children[copy.children.count - 1] = last.cloneOpenChain(asSnapshot: asSnapshot)
        }
        return copy
    }

    var acceptsLines: Bool { kind == .paragraph || kind == .codeBlock || kind == .htmlBlock || kind == .table }

    func canContain(_ child: Kind) -> Bool {
        switch kind {
        case .document, .blockQuote, .item: return child != .item
        case .list: return child == .item
        default: return false
        }
    }
}
