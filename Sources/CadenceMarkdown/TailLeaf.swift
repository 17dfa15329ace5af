/// The tail's last block — the open paragraph, code block or table at the end of the open chain —
/// updated from the last read's value instead of being rebuilt.
///
/// Between two reads the last block only grows at its end: a paragraph's or a code block's text
/// gains bytes, a table gains rows. So the last read's value, taken out of the last tail (see
/// `lastBlock(taking:)`), keeps what cannot have changed — the inlines before the paragraph's
/// stable point, the code text, the parsed rows — and only the new part is parsed and appended.
/// When the reader let go of the last tail, the taken arrays and strings are uniquely referenced
/// and grow in place, so a read costs the new text, not the block's size; when the reader still
/// holds it, copy-on-write copies them and the result is the same.
///
/// A value is reused only for the same block (the key: where it starts, how its text was cut, how
/// many link definitions were known) whose text has not shrunk; a block's text only ever grows at
/// the end, or is cut back to what it was before the pending line (then it is shorter, and rebuilt).
struct TailLeaf {
    enum Key: Equatable {
        case paragraph(startLine: Int, startOffset: Int, textStart: Int, references: Int)
        case code(startLine: Int, textStart: Int)
        case table(startLine: Int, columns: Int, references: Int)
    }

    /// The key of the last read's last block, and that block, taken out of the last tail.
    var previousKey: Key?
    var previous: Block?
    /// The key of the value built by this read, if the last block was built here.
    var key: Key?
    var paragraphInlines = OpenParagraphInlines()
    /// How many bytes of text the last code value holds.
    var codeBytes = 0
    /// How many rows the last table value holds.
    var rowCount = 0

    /// Prepares a read: the last tail's last block becomes `previous`, and the last tail is released.
    mutating func beginRead(taking blocks: inout [Block]) {
        previousKey = key
        key = nil
        previous = previousKey == nil ? nil : Self.lastBlock(taking: &blocks)
        blocks = []
    }

    /// Ends a read: drops what was not used.
    mutating func endRead() {
        previous = nil
        previousKey = nil
    }

    private mutating func takePrevious(ifKey key: Key) -> Block? {
        var block: Block?
        if previousKey == key { swap(&block, &previous) }
        self.key = key
        return block
    }

    // MARK: Paragraph

    mutating func paragraph(
        _ node: BlockNode, options: MarkdownOptions, references: [String: LinkReference], work: WorkCounter?
    ) -> [Inline] {
        let key = Key.paragraph(
            startLine: node.startLine, startOffset: node.startOffset, textStart: node.textStart,
            references: references.count)
        return paragraphInlines.update(
            node, previous: Self.inlines(of: takePrevious(ifKey: key)), options: options, references: references,
            work: work)
    }

    // MARK: Code

    mutating func code(_ node: BlockNode, work: WorkCounter?) -> String {
        let key = Key.code(startLine: node.startLine, textStart: node.textStart)
        return code(node, previous: Self.codeBlock(of: takePrevious(ifKey: key))?.code, work: work)
    }

    private mutating func code(_ node: BlockNode, previous: consuming String?, work: WorkCounter?) -> String {
        let text = LeafText(node)
        let count = text.count
        if var code = consume previous, codeBytes > 0, count >= codeBytes,
            code.utf8.count == codeBytes, code.utf8.last == 0x0A, !Self.isContinuationByte(text[codeBytes - 1])
        {
            // The last line ending was the end of the pending line: the text goes on from there.
            code.removeSubrange(code.utf8.index(before: code.endIndex)...)
            code += ByteClass.string(text.bytes(from: codeBytes - 1))
            work?.steps += count - codeBytes + 1
            codeBytes = count
            return code
        }
        work?.steps += count
        codeBytes = count
        return ByteClass.string(text.bytes(from: 0))
    }

    // MARK: Table

    mutating func table(
        _ node: BlockNode, options: MarkdownOptions, references: [String: LinkReference], work: WorkCounter?
    ) -> Table {
        let columns = node.table.alignments.count
        let key = Key.table(startLine: node.startLine, columns: columns, references: references.count)
        var parser = InlineParser(options: options, references: references)
        func cell(_ bytes: [UInt8]) -> [Inline] {
            let inlines = parser.parse(bytes[...])
            work?.steps += parser.work
            parser.work = 0
            return inlines
        }
        func cells(_ row: [[UInt8]]) -> [[Inline]] { row.prefix(columns).map(cell) }
        let rows = node.table.rows
        if var table = Self.table(of: takePrevious(ifKey: key)), table.rows.count == rowCount,
            rows.count >= rowCount
        {
            // The header is the table's first line, but the delimiter row may still be being typed.
            table.alignments = node.table.alignments
            for row in rows[rowCount...] { table.rows.append(cells(row)) }
            rowCount = rows.count
            return table
        }
        rowCount = rows.count
        return Table(alignments: node.table.alignments, header: node.table.header.map(cell), rows: rows.map(cells))
    }

    // MARK: In place

    /// For a read where only the pending part of `node` (the last read's leaf) grew: updates the
    /// last block of `blocks` in place, rebuilding only the blocks on the way to it. Returns
    /// `false` when `blocks` does not end with that leaf's value (then `blocks` is lost).
    mutating func updateInPlace(
        _ node: BlockNode, blocks: inout [Block], options: MarkdownOptions, references: [String: LinkReference],
        work: WorkCounter?
    ) -> Bool {
        guard let key, let last = blocks.popLast() else { return false }
        let updated = Self.replacingLastLeaf(of: consume last, work: work) { leaf -> Block? in
            switch key {
            case .paragraph:
                guard let inlines = Self.inlines(of: consume leaf) else { return nil }
                return .paragraph(
                    paragraphInlines.update(
                        node, previous: consume inlines, options: options, references: references, work: work))
            case .code:
                guard var block = Self.codeBlock(of: consume leaf) else { return nil }
                let previous = block.code
                block.code = ""
                block.code = code(node, previous: consume previous, work: work)
                return .codeBlock(block)
            case .table:
                return nil
            }
        }
        guard let updated else {
            self.key = nil
            return false
        }
        blocks.append(updated)
        return true
    }

    /// `block` with its last leaf (descending into block quotes and lists) replaced by `body`'s.
    /// Each level is taken apart before the next is touched, so that the leaf reaches `body`
    /// uniquely referenced.
    private static func replacingLastLeaf(
        of block: consuming Block, work: WorkCounter?, _ body: (consuming Block) -> Block?
    ) -> Block? {
        work?.steps += 1
        var block = consume block
        if case .blockQuote(var children) = block {
            block = .thematicBreak
            guard let last = children.popLast(), let new = replacingLastLeaf(of: consume last, work: work, body) else {
                return nil
            }
            children.append(new)
            return .blockQuote(children)
        }
        if case .list(var list) = block {
            block = .thematicBreak
            guard var item = list.items.popLast(), let last = item.blocks.popLast(),
                let new = replacingLastLeaf(of: consume last, work: work, body)
            else { return nil }
            item.blocks.append(new)
            list.items.append(item)
            return .list(list)
        }
        return body(consume block)
    }

    // MARK: Taking values apart

    /// The last block of `blocks`, descending into block quotes and lists to their last block, taken
    /// out so that nothing else holds it.
    static func lastBlock(taking blocks: inout [Block]) -> Block? {
        guard var current = blocks.popLast() else { return nil }
        blocks = []
        while true {
            switch current {
            case .blockQuote(var children):
                current = .thematicBreak
                guard let last = children.popLast() else { return nil }
                children = []
                current = last
            case .list(var list):
                current = .thematicBreak
                guard var item = list.items.popLast(), let last = item.blocks.popLast() else { return nil }
                list.items = []
                item.blocks = []
                current = last
            default:
                return current
            }
        }
    }

    static func inlines(of block: consuming Block?) -> [Inline]? {
        guard case .paragraph(let inlines)? = block else { return nil }
        return inlines
    }

    static func codeBlock(of block: consuming Block?) -> CodeBlock? {
        guard case .codeBlock(let code)? = block else { return nil }
        return code
    }

    static func table(of block: consuming Block?) -> Table? {
        guard case .table(let table)? = block else { return nil }
        return table
    }

    static func isContinuationByte(_ c: UInt8) -> Bool { c & 0xC0 == 0x80 }
}
