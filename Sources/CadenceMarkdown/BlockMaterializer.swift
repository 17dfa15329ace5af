/// Turns parsed `BlockNode`s into `Block` values, parsing inline content.
///
/// Closed nodes cache their value; the cache stays valid until a later definition resolves a label
/// the block looked up in vain. Snapshot copies (the open tail) are rebuilt, with unfinished
/// constructs closed virtually; within one snapshot, those off the spine (`BlockNode.isSpine`) are
/// cached on the snapshot's nodes, and the spine's last block is updated from the last read's
/// value by `TailLeaf` instead of being rebuilt.
struct BlockMaterializer {
    let options: MarkdownOptions
    let references: [String: LinkReference]
    /// Only the owner of the live parser may fill caches of live nodes; a tail read never does.
    let writesCache: Bool
    /// A tail read may cache the values of its own snapshot's nodes that are off the spine: the
    /// snapshot is read again, unchanged but for its last block, until the next line arrives.
    var cachesSnapshotBlocks = false
    /// The snapshot's node whose value is the tail's last block, and what updates it.
    var leafNode: BlockNode?
    var leaf: TailLeaf?
    /// Labels looked up in vain by the blocks built so far.
    var misses: [String] = []
    /// Where the inline parsers' work is added up, if anywhere.
    let workCounter: WorkCounter?
    /// One inline parser for every block: its arrays keep their capacity from block to block.
    private var parser: InlineParser

    init(
        options: MarkdownOptions, references: [String: LinkReference], writesCache: Bool,
        workCounter: WorkCounter? = nil
    ) {
        self.options = options
        self.references = references
        self.writesCache = writesCache
        self.workCounter = workCounter
        parser = InlineParser(options: options, references: references)
    }

    private func mayCache(_ node: BlockNode) -> Bool {
        node.isSnapshotCopy ? cachesSnapshotBlocks && !node.isSpine : writesCache
    }

    private func mayReadCache(_ node: BlockNode) -> Bool {
        !node.isSnapshotCopy || (cachesSnapshotBlocks && !node.isSpine)
    }

    /// Appends the values of `node` to `out` (one block, or an item's or the document's blocks):
    /// no array of its own per node.
    mutating func append(_ node: BlockNode, to out: inout [Block]) {
        workCounter?.steps += 1
        if mayReadCache(node), let cached = node.cachedValue,
            !node.cachedMisses.contains(where: { references[$0] != nil })
        {
            if !node.cachedMisses.isEmpty { misses += node.cachedMisses }
            out.append(cached)
            return
        }
        let missesBefore = misses.count
        let start = out.count
        build(node, into: &out)
        if mayCache(node), out.count == start + 1 {
            node.cachedValue = out[start]
            node.cachedMisses = misses.count == missesBefore ? [] : Array(misses[missesBefore...])
        }
    }

    mutating func inlines(_ content: ArraySlice<UInt8>, streaming: Bool) -> [Inline] {
        parser.closesOpenConstructs = streaming
        let result = parser.parse(content)
        if !parser.misses.isEmpty {
            misses += parser.misses
            parser.misses.removeAll(keepingCapacity: true)
        }
        workCounter?.steps += parser.work
        parser.work = 0
        return result
    }

    private mutating func build(_ node: BlockNode, into out: inout [Block]) {
        let streaming = node.isSnapshotCopy
        switch node.kind {
        case .document:
            for child in node.children { append(child, to: &out) }
        case .blockQuote:
            var content: [Block] = []
            for child in node.children { append(child, to: &content) }
            out.append(.blockQuote(content))
        case .paragraph:
            if streaming, options.tables, let split = pendingTableHeader(node) {
                out += split
                return
            }
            if let value = leafValue(node) {
                out.append(value)
                return
            }
            out.append(.paragraph(inlines(node.fullText, streaming: streaming)))
        case .heading:
            if let value = leafValue(node) {
                out.append(value)
                return
            }
            let text = node.hasPendingPart ? BlockParser.headingText(node.pendingPart) : node.text
            out.append(.heading(level: node.level, inlines(text, streaming: streaming)))
        case .thematicBreak:
            out.append(.thematicBreak)
        case .codeBlock:
            out.append(leafValue(node) ?? .codeBlock(Self.codeBlock(node, code: ByteClass.string(node.fullText))))
        case .htmlBlock:
            out.append(.htmlBlock(ByteClass.string(node.fullText)))
        case .list:
            let kind: MarkdownList.Kind =
                node.listData.isOrdered
                ? .ordered(start: node.listData.start, delimiter: Character(Unicode.Scalar(node.listData.delimiter)))
                : .bullet(marker: Character(Unicode.Scalar(node.listData.bulletChar)))
            var items: [ListItem] = []
            items.reserveCapacity(node.children.count)
            for item in node.children { items.append(listItem(item)) }
            out.append(.list(MarkdownList(kind: kind, isTight: node.isTight, items: items)))
        case .item:
            out += listItem(node).blocks
        case .table:
            if let value = leafValue(node) {
                out.append(value)
                return
            }
            let columns = node.table.alignments.count
            let header = node.table.header.map { inlines($0[...], streaming: false) }
            let rows = node.table.rows.map { row in row.prefix(columns).map { inlines($0[...], streaming: false) } }
            out.append(.table(Table(alignments: node.table.alignments, header: header, rows: rows)))
        }
    }

    /// The value of a snapshot's block that the tail's leaf keeps (the open leaf itself, or a block
    /// the last read built, found by its key), updated in place instead of parsed again; `nil` for
    /// any other block. Every kind the leaf keeps is read here, with no closure, on the tail read's
    /// hot path.
    private mutating func leafValue(_ node: BlockNode) -> Block? {
        guard node.isSnapshotCopy, leaf != nil else { return nil }
        let isLeaf = node === leafNode
        var steps = 0
        defer { workCounter?.steps += steps }
        switch node.kind {
        case .paragraph:
            guard isLeaf || leaf!.hasPrevious(TailLeaf.paragraphKey(node, references: references)) else { return nil }
            return .paragraph(
                leaf!.paragraph(node, isLeaf: isLeaf, options: options, references: references, work: &steps))
        case .heading:
            guard isLeaf else { return nil }
            return .heading(
                level: node.level, leaf!.heading(node, options: options, references: references, work: &steps))
        case .codeBlock:
            guard isLeaf || leaf!.hasPrevious(TailLeaf.codeKey(node)) else { return nil }
            return .codeBlock(Self.codeBlock(node, code: leaf!.code(node, isLeaf: isLeaf, work: &steps)))
        case .table:
            guard isLeaf || leaf!.hasPrevious(TailLeaf.tableKey(node, references: references)) else { return nil }
            return .table(leaf!.table(node, isLeaf: isLeaf, options: options, references: references, work: &steps))
        default:
            return nil
        }
    }

    /// A code block's value: its info string, `code`, and whether a fenced block is still open.
    private static func codeBlock(_ node: BlockNode, code: String) -> CodeBlock {
        let info = node.isFenced && !node.info.isEmpty ? ByteClass.string(node.info) : nil
        return CodeBlock(info: info, code: code, isOpen: node.isSnapshotCopy && node.isFenced && !node.closedByFence)
    }

    private mutating func listItem(_ node: BlockNode) -> ListItem {
        workCounter?.steps += 1
        if mayReadCache(node), let cached = node.cachedItem,
            !node.cachedMisses.contains(where: { references[$0] != nil })
        {
            misses += node.cachedMisses
            return cached
        }
        let missesBefore = misses.count
        var checkbox: Bool?
        var blocks: [Block] = []
        for (index, child) in node.children.enumerated() {
            if index == 0, options.taskLists, child.kind == .paragraph, child.startLine == node.startLine,
                child.firstTextByte == UInt8(ascii: "["), let (checked, rest) = Self.taskMarker(child.fullText),
                !Self.markerIsWholeParagraphBeforeMore(rest, in: node)
            {
                checkbox = checked
                if !ByteClass.isBlank(rest) {
                    blocks.append(.paragraph(inlines(rest, streaming: child.isSnapshotCopy)))
                }
                continue
            }
            append(child, to: &blocks)
        }
        let item = ListItem(checkbox: checkbox, blocks: blocks)
        if mayCache(node) {
            node.cachedItem = item
            node.cachedMisses = Array(misses[missesBefore...])
        }
        return item
    }

    /// A marker with only whitespace after it (the paragraph is `[x]`, its final whitespace no part of it)
    /// followed by a blank line and more of the item: no task item (GFM spec 5.3 wants whitespace after the
    /// marker, inside the paragraph), so the item holds the text `[x]`. A marker alone that ends its item
    /// stays an empty task item, as cmark-gfm draws it. A link reference definition is more of the item
    /// too (its paragraph is gone, its lines kept), as it is for the list's looseness.
    private static func markerIsWholeParagraphBeforeMore(_ rest: ArraySlice<UInt8>, in item: BlockNode) -> Bool {
        guard ByteClass.isBlank(rest) else { return false }
        let end = item.children[0].endLine
        var next = item.children.count > 1 ? item.children[1].startLine : nil
        if let definition = item.definitionLines.first(where: { $0.lowerBound > end }) {
            next = min(next ?? definition.lowerBound, definition.lowerBound)
        }
        guard let next else { return false }
        return next - end > 1
    }

    /// `[ ]`, `[x]` or `[X]` then a space or tab at the start of an item's first paragraph.
    static func taskMarker(_ content: ArraySlice<UInt8>) -> (Bool, ArraySlice<UInt8>)? {
        let s = content.startIndex
        guard content.count >= 4, content[s] == UInt8(ascii: "["), content[s + 2] == UInt8(ascii: "]"),
            ByteClass.isSpaceOrTab(content[s + 3])
        else { return nil }
        switch content[s + 1] {
        case UInt8(ascii: " "): return (false, content[(s + 4)...])
        case UInt8(ascii: "x"), UInt8(ascii: "X"): return (true, content[(s + 4)...])
        default: return nil
        }
    }

    /// Streaming: a last paragraph line that starts with `|` shows as a pending table header.
    private mutating func pendingTableHeader(_ node: BlockNode) -> [Block]? {
        // Only the last line matters: look at it before joining anything.
        let lastLineStart: UInt8?
        if node.hasPendingPart {
            lastLineStart = ByteClass.trimmed(node.pendingPart).first
        } else {
            var text = node.text
            if text.last == 0x0A { text = text.dropLast() }
            let start = (text.lastIndex(of: 0x0A) ?? (text.startIndex - 1)) + 1
            lastLineStart = ByteClass.trimmed(text[start...]).first
        }
        guard lastLineStart == UInt8(ascii: "|") else { return nil }
        var content = node.fullText
        if content.last == 0x0A { content = content.dropLast() }
        let lineStart = (content.lastIndex(of: 0x0A) ?? (content.startIndex - 1)) + 1
        var steps = 0
        defer { workCounter?.steps += steps }
        guard let header = TailLeaf.pendingHeader(content[lineStart...], options: options, references: references, work: &steps)
        else { return nil }
        var out: [Block] = []
        if lineStart > content.startIndex {
            out.append(.paragraph(inlines(content[..<lineStart], streaming: false)))
        }
        out.append(.table(header))
        // The tail's last block: the next read updates it in place while the pending line grows.
        if node === leafNode { leaf?.markPendingHeader(node, references: references) }
        return out
    }
}
