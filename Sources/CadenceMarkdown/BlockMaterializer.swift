/// Turns parsed `BlockNode`s into `Block` values, parsing inline content.
///
/// Closed nodes cache their value; the cache stays valid until a later definition resolves a label
/// the block looked up in vain. Snapshot copies (the open tail) are rebuilt each time, with unfinished
/// constructs closed virtually.
struct BlockMaterializer {
    let options: MarkdownOptions
    let references: [String: LinkReference]
    /// Only the owner of the live parser may fill caches; a tail snapshot (a read) never does.
    let writesCache: Bool
    /// A tail snapshot re-parses an open paragraph only after its stable prefix, and extends it.
    var usesStablePrefixes = false
    /// The stable prefix of the open paragraph, carried from one snapshot to the next.
    var stablePrefix: StablePrefix?

    /// The inlines of a prefix of the open paragraph's text that more text cannot change.
    struct StablePrefix {
        var startLine: Int
        var bytes: [UInt8]
        var inlines: [Inline]
        var referenceCount: Int
    }
    /// Labels looked up in vain by the blocks built so far.
    var misses: [String] = []
    /// Where the inline parsers' work is added up, if anywhere.
    let workCounter: WorkCounter?

    init(
        options: MarkdownOptions, references: [String: LinkReference], writesCache: Bool,
        workCounter: WorkCounter? = nil
    ) {
        self.options = options
        self.references = references
        self.writesCache = writesCache
        self.workCounter = workCounter
    }

    mutating func blocks(_ node: BlockNode) -> [Block] {
        if !node.isSnapshotCopy, let cached = node.cachedValue,
            !node.cachedMisses.contains(where: { references[$0] != nil })
        {
            misses += node.cachedMisses
            return [cached]
        }
        let missesBefore = misses.count
        let built = build(node)
        if writesCache, !node.isSnapshotCopy, built.count == 1 {
            node.cachedValue = built[0]
            node.cachedMisses = Array(misses[missesBefore...])
        }
        return built
    }

    private mutating func inlines(_ content: ArraySlice<UInt8>, streaming: Bool) -> [Inline] {
        var parser = InlineParser(options: options, references: references, closesOpenConstructs: streaming)
        let result = parser.parse(content)
        misses += parser.misses
        workCounter?.steps += parser.work
        return result
    }

    private mutating func children(_ node: BlockNode) -> [Block] {
        var out: [Block] = []
        for child in node.children { out += blocks(child) }
        return out
    }

    private mutating func build(_ node: BlockNode) -> [Block] {
        let streaming = node.isSnapshotCopy
        switch node.kind {
        case .document, .blockQuote:
            let content = children(node)
            return node.kind == .document ? content : [.blockQuote(content)]
        case .paragraph:
            if streaming, options.tables, let split = pendingTableHeader(node) { return split }
            if streaming && usesStablePrefixes { return [.paragraph(streamingInlines(node))] }
            return [.paragraph(inlines(node.content[...], streaming: streaming))]
        case .heading:
            return [.heading(level: node.level, inlines(node.content[...], streaming: streaming))]
        case .thematicBreak:
            return [.thematicBreak]
        case .codeBlock:
            let info = node.isFenced && !node.info.isEmpty ? ByteClass.string(node.info) : nil
            let isOpen = streaming && node.isFenced && !node.closedByFence
            return [.codeBlock(CodeBlock(info: info, code: ByteClass.string(node.content), isOpen: isOpen))]
        case .htmlBlock:
            return [.htmlBlock(ByteClass.string(node.content))]
        case .list:
            let kind: MarkdownList.Kind =
                node.listData.isOrdered
                ? .ordered(start: node.listData.start, delimiter: Character(Unicode.Scalar(node.listData.delimiter)))
                : .bullet(marker: Character(Unicode.Scalar(node.listData.bulletChar)))
            var items: [ListItem] = []
            for item in node.children { items.append(listItem(item)) }
            return [.list(MarkdownList(kind: kind, isTight: node.isTight, items: items))]
        case .item:
            return listItem(node).blocks
        case .table:
            let columns = node.table.alignments.count
            let header = node.table.header.map { inlines($0[...], streaming: false) }
            let rows = node.table.rows.map { row in row.prefix(columns).map { inlines($0[...], streaming: false) } }
            return [.table(Table(alignments: node.table.alignments, header: header, rows: rows))]
        }
    }

    private mutating func listItem(_ node: BlockNode) -> ListItem {
        var checkbox: Bool?
        var blocks: [Block] = []
        for (index, child) in node.children.enumerated() {
            if index == 0, options.taskLists, child.kind == .paragraph, child.startLine == node.startLine,
                let (checked, rest) = Self.taskMarker(child.content)
            {
                checkbox = checked
                if !ByteClass.isBlank(rest) {
                    blocks.append(.paragraph(inlines(rest, streaming: child.isSnapshotCopy)))
                }
                continue
            }
            blocks += self.blocks(child)
        }
        return ListItem(checkbox: checkbox, blocks: blocks)
    }

    /// The inlines of an open paragraph: its stable prefix (cached on the live node) followed by a
    /// fresh parse of the rest, with unfinished constructs closed. Extends the prefix when the parse
    /// found a later safe point.
    private mutating func streamingInlines(_ node: BlockNode) -> [Inline] {
        let content = ByteClass.trimmedStart(node.content[...])
        var prefix: [Inline] = []
        var prefixLength = 0
        if let cached = stablePrefix, cached.startLine == node.startLine, cached.referenceCount == references.count,
            content.starts(with: cached.bytes)
        {
            prefix = cached.inlines
            prefixLength = cached.bytes.count
        }
        let start = content.startIndex + prefixLength
        var parser = InlineParser(options: options, references: references, closesOpenConstructs: true)
        let rest = parser.parse(content[start...])
        misses += parser.misses
        workCounter?.steps += parser.work
        if parser.safePoint > 0 {
            let end = start + parser.safePoint
            var prefixParser = InlineParser(options: options, references: references)
            let more = prefixParser.parse(content[start..<end], trimsEnd: false)
            workCounter?.steps += prefixParser.work
            stablePrefix = StablePrefix(
                startLine: node.startLine, bytes: Array(content[..<end]), inlines: Self.concatenate(prefix, more),
                referenceCount: references.count)
        }
        return Self.concatenate(prefix, rest)
    }

    /// `a + b`, merging a text at the end of `a` with a text at the start of `b`.
    static func concatenate(_ a: [Inline], _ b: [Inline]) -> [Inline] {
        guard case .text(let left)? = a.last, case .text(let right)? = b.first else { return a + b }
        return a.dropLast() + [.text(left + right)] + b.dropFirst()
    }

    /// `[ ]`, `[x]` or `[X]` then a space or tab at the start of an item's first paragraph.
    static func taskMarker(_ content: [UInt8]) -> (Bool, ArraySlice<UInt8>)? {
        guard content.count >= 4, content[0] == UInt8(ascii: "["), content[2] == UInt8(ascii: "]"),
            ByteClass.isSpaceOrTab(content[3])
        else { return nil }
        switch content[1] {
        case UInt8(ascii: " "): return (false, content[4...])
        case UInt8(ascii: "x"), UInt8(ascii: "X"): return (true, content[4...])
        default: return nil
        }
    }

    /// Streaming: a last paragraph line that starts with `|` shows as a pending table header.
    private mutating func pendingTableHeader(_ node: BlockNode) -> [Block]? {
        var content = node.content[...]
        if content.last == 0x0A { content = content.dropLast() }
        let lineStart = (content.lastIndex(of: 0x0A) ?? (content.startIndex - 1)) + 1
        let lastLine = ByteClass.trimmed(content[lineStart...])
        guard lastLine.first == UInt8(ascii: "|"), lastLine.count > 1 else { return nil }
        let cells = TableSyntax.cells(of: lastLine, columns: nil)
        var out: [Block] = []
        if lineStart > content.startIndex {
            out.append(.paragraph(inlines(content[..<lineStart], streaming: false)))
        }
        let header = cells.map { inlines($0[...], streaming: true) }
        out.append(
            .table(
                Table(
                    alignments: Array(repeating: .none, count: cells.count), header: header, rows: [],
                    isPending: true)))
        return out
    }
}
