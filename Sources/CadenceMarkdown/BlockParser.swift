/// The line-by-line block parser (CommonMark 0.31.2 §5, the two-phase algorithm of the spec's appendix).
///
/// Lines are fed one at a time; a top-level block that closes moves to `closed`, never to change again.
/// Inline content is parsed later, by `BlockMaterializer`.
struct BlockParser {
    let options: MarkdownOptions
    var stack: [BlockNode]
    var references: [String: LinkReference] = [:]
    /// The labels of `references` in the order they were defined: the document learns from it which
    /// are new (`SettledBlocks.define`).
    var definedLabels: [String] = []
    /// Closed top-level blocks, in order, waiting to be taken by the document.
    var closed: [BlockNode] = []
    /// Every node closed since the owner last looked, innermost first (live parser only).
    var justClosed: [BlockNode] = []
    /// A snapshot parser marks the nodes it creates, so they are never cached.
    var makesSnapshotNodes = false
    var lineNumber = 0

    var line: [UInt8] = []
    var offset = 0
    var column = 0
    var nextNonspace = 0
    var nextNonspaceColumn = 0
    var indent = 0
    var indented = false
    var blank = false
    var partiallyConsumedTab = false
    var allClosed = true
    var lastMatched = 0
    /// On this line, no thematic break starts before this offset (a failed scan saw to here), so
    /// nested list items do not rescan the rest of the line each: `- - - - … a` stays linear.
    var thematicBreakScannedTo = 0
    /// Steps of work (`WorkCounter`): lines, containers matched, bytes scanned and copied.
    var work = 0
    /// Whether the reading of the current line could change if more bytes came at its end: some
    /// decision looked at the end of the line (a blank so far, a fence or marker run, a heading).
    /// A line still being typed that is not sensitive only grows the block it went to.
    var lineEndSensitive = false
    /// Tail snapshots keep the line they read out of the open block's `content`, so that the
    /// block's bytes are not copied (see `BlockNode+Text.swift`); where it went is `deferredLeaf`.
    var defersLastLine = false
    var deferredLeaf: BlockNode?
    /// Where the deferred block's part of the line starts.
    var deferredOffset = 0
    /// Tail snapshots: where scans of the same pending line stopped at the last read.
    var lineScans = LineScans()

    init(options: MarkdownOptions) {
        self.options = options
        stack = [BlockNode(.document, startLine: 1)]
    }

    var tip: BlockNode { stack[stack.count - 1] }

    /// A copy that can be fed and finished without touching this parser's nodes.
    /// A snapshot copy marks its open nodes, so they are rebuilt (never cached) and closed virtually.
    func copy(asSnapshot: Bool) -> BlockParser {
        var copy = self
        copy.closed = asSnapshot ? [] : closed
        copy.justClosed = asSnapshot ? [] : justClosed
        copy.makesSnapshotNodes = asSnapshot || makesSnapshotNodes
        let root = stack[0].cloneOpenChain(asSnapshot: asSnapshot)
        var chain = [root]
        while let last = chain[chain.count - 1].children.last, last.isOpen { chain.append(last) }
        copy.stack = chain
        return copy
    }

    // MARK: Line state

    func peek(_ i: Int) -> UInt8? { i < line.count ? line[i] : nil }

    /// Finds the first non-space at or after `offset`; reuses the last scan while `offset` has not
    /// passed it, so deeply nested containers cost O(depth) per line, not O(depth²).
    mutating func findNextNonspace() {
        guard nextNonspace <= offset else {
            indent = nextNonspaceColumn - column
            indented = indent >= 4
            return
        }
        var i = offset
        var cols = column
        work += 1
        if let known = lineScans.blank, known.start == offset, known.column == column, known.end <= line.count {
            i = known.end
            cols = known.endColumn
        }
        while i < line.count {
            work += 1
            let c = line[i]
            if c == 0x20 {
                i += 1
                cols += 1
            } else if c == 0x09 {
                i += 1
                cols += 4 - (cols % 4)
            } else {
                break
            }
        }
        blank = i == line.count
        if blank {
            lineEndSensitive = true
            if defersLastLine { lineScans.blank = (offset, column, i, cols) }
        }
        nextNonspace = i
        nextNonspaceColumn = cols
        indent = cols - column
        indented = indent >= 4
    }

    mutating func advanceNextNonspace() {
        offset = nextNonspace
        column = nextNonspaceColumn
        partiallyConsumedTab = false
    }

    mutating func advanceOffset(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < line.count {
            if line[offset] == 0x09 {
                let charsToTab = 4 - (column % 4)
                if columns {
                    partiallyConsumedTab = charsToTab > count
                    let advance = min(charsToTab, count)
                    column += advance
                    offset += partiallyConsumedTab ? 0 : 1
                    count -= advance
                } else {
                    partiallyConsumedTab = false
                    column += charsToTab
                    offset += 1
                    count -= 1
                }
            } else {
                partiallyConsumedTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    // MARK: Lines

    enum Continuation { case matched, notMatched, consumed }

    mutating func incorporate(line newLine: [UInt8]) {
        line = newLine
        offset = 0
        column = 0
        nextNonspace = 0
        nextNonspaceColumn = 0
        blank = false
        partiallyConsumedTab = false
        lineNumber += 1
        thematicBreakScannedTo = 0
        lineEndSensitive = false
        work += 1

        var depth = 0
        descend: while depth + 1 < stack.count {
            work += 1
            let node = stack[depth + 1]
            findNextNonspace()
            switch continuation(of: node) {
            case .matched: depth += 1
            case .notMatched: break descend
            case .consumed: return
            }
        }
        allClosed = depth == stack.count - 1
        lastMatched = depth
        var container = stack[depth]
        var matchedLeaf = container.kind != .paragraph && container.kind != .table && container.acceptsLines
        starts: while !matchedLeaf {
            work += 1
            findNextNonspace()
            if !indented && !mayStartBlock(peek(nextNonspace)) {
                advanceNextNonspace()
                break
            }
            switch tryBlockStarts(container) {
            case .none:
                advanceNextNonspace()
                break starts
            case .container:
                container = tip
            case .leaf:
                container = tip
                matchedLeaf = true
            }
        }

        if !allClosed && !blank && tip.kind == .paragraph {
            addLine()  // lazy paragraph continuation
            return
        }
        closeUnmatchedBlocks()
        container = tip
        if container.acceptsLines {
            addLine()
            if container.kind == .htmlBlock, (1...5).contains(container.htmlType) {
                if HTMLSyntax.blockEnds(container.htmlType, line[offset...]) {
                    finalizeTip(endLine: lineNumber)
                } else {
                    lineEndSensitive = true  // the end marker may still come on this line
                }
            }
        } else if offset < line.count && !blank {
            let paragraph = addChild(.paragraph)
            advanceNextNonspace()
            paragraph.startOffset = offset
            addLine()
        }
    }

    private func mayStartBlock(_ c: UInt8?) -> Bool {
        guard let c else { return false }
        switch c {
        case UInt8(ascii: "#"), UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "_"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "-"),
            UInt8(ascii: "|"), UInt8(ascii: ":"):
            return true
        default: return ByteClass.isDigit(c)
        }
    }

    mutating func continuation(of node: BlockNode) -> Continuation {
        switch node.kind {
        case .document, .list:
            return .matched
        case .blockQuote:
            guard !indented, peek(nextNonspace) == UInt8(ascii: ">") else { return .notMatched }
            advanceNextNonspace()
            advanceOffset(1, columns: false)
            skipSpaceAfterQuoteMarker()
            return .matched
        case .item:
            if blank {
                if node.children.isEmpty { return .notMatched }
                advanceNextNonspace()
            } else if indent >= node.listData.markerOffset + node.listData.padding {
                advanceOffset(node.listData.markerOffset + node.listData.padding, columns: true)
            } else {
                return .notMatched
            }
            return .matched
        case .heading, .thematicBreak:
            return .notMatched
        case .codeBlock:
            if node.isFenced {
                if indent <= 3, peek(nextNonspace) == node.fenceChar {
                    var i = nextNonspace
                    while i < line.count && line[i] == node.fenceChar { i += 1 }
                    let run = i - nextNonspace
                    while i < line.count && ByteClass.isSpaceOrTab(line[i]) { i += 1 }
                    if i == line.count { lineEndSensitive = true }
                    if run >= node.fenceLength && i == line.count {
                        node.closedByFence = true
                        finalizeTip(endLine: lineNumber)
                        return .consumed
                    }
                }
                var skip = node.fenceOffset
                while skip > 0, let c = peek(offset), ByteClass.isSpaceOrTab(c) {
                    advanceOffset(1, columns: true)
                    skip -= 1
                }
                return .matched
            }
            if indent >= 4 {
                advanceOffset(4, columns: true)
            } else if blank {
                advanceNextNonspace()
            } else {
                return .notMatched
            }
            return .matched
        case .htmlBlock:
            return blank && (node.htmlType == 6 || node.htmlType == 7) ? .notMatched : .matched
        case .paragraph, .table:
            return blank ? .notMatched : .matched
        }
    }

    mutating func addLine() {
        let node = tip
        if node.kind == .table {
            // The delimiter row leaves nothing on its line; a row is never blank.
            guard !ByteClass.isBlank(line[offset...]) else { return }
            node.table.rows.append(TableSyntax.cells(of: line[offset...], columns: node.table.alignments.count))
            return
        }
        if defersLastLine && !partiallyConsumedTab {
            node.pendingPart = line[offset...]
            node.hasPendingPart = true
            deferredLeaf = node
            deferredOffset = offset
            work += 1
            return
        }
        if partiallyConsumedTab {
            offset += 1
            let charsToTab = 4 - (column % 4)
            node.content.append(contentsOf: repeatElement(UInt8(0x20), count: charsToTab))
        }
        node.content.append(contentsOf: line[offset...])
        node.content.append(0x0A)
        work += line.count - offset
    }

    @discardableResult
    mutating func addChild(_ kind: BlockNode.Kind) -> BlockNode {
        while !tip.canContain(kind) { finalizeTip(endLine: lineNumber - 1) }
        let node = makeNode(kind, startLine: lineNumber)
        tip.children.append(node)
        stack.append(node)
        return node
    }

    /// After a `>` marker: one space or tab is part of the marker.
    mutating func skipSpaceAfterQuoteMarker() {
        if let c = peek(offset) {
            if ByteClass.isSpaceOrTab(c) { advanceOffset(1, columns: true) }
        } else {
            lineEndSensitive = true
        }
    }

    func makeNode(_ kind: BlockNode.Kind, startLine: Int) -> BlockNode {
        let node = BlockNode(kind, startLine: startLine)
        node.isSnapshotCopy = makesSnapshotNodes
        return node
    }

    mutating func closeUnmatchedBlocks() {
        guard !allClosed else { return }
        while stack.count - 1 > lastMatched { finalizeTip(endLine: lineNumber - 1) }
        allClosed = true
    }

    /// Closes every open block: the end of the input.
    mutating func finish() {
        while stack.count > 1 { finalizeTip(endLine: lineNumber) }
    }
}
