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
        /// A paragraph whose last line, a row of pipes being typed, shows as a pending table header
        /// (`BlockMaterializer.pendingTableHeader`): the tail's last block is that header.
        case pendingHeader(startLine: Int, startOffset: Int, textStart: Int, references: Int)
        case code(startLine: Int, textStart: Int)
        case table(startLine: Int, columns: Int, references: Int)
        case heading(startLine: Int, references: Int)
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

    /// The last read's last block, if it was the value of the block with `key`. Only the spine's
    /// leaf records its key (`isLeaf`): its value is the last block of this read's tail. Another
    /// block may take the last value too — the last read's leaf, closed by the pending line.
    private mutating func takePrevious(ifKey key: Key, isLeaf: Bool) -> Block? {
        var block: Block?
        if previousKey == key {
            swap(&block, &previous)
            previousKey = nil
        }
        if isLeaf { self.key = key }
        return block
    }

    /// Whether the last read's last block was the value of the block with `key`.
    func hasPrevious(_ key: Key) -> Bool { previousKey == key }

    // MARK: Paragraph

    mutating func paragraph(
        _ node: BlockNode, isLeaf: Bool, options: MarkdownOptions, references: [String: LinkReference],
        work: inout Int
    ) -> [Inline] {
        let key = Self.paragraphKey(node, references: references)
        return paragraphInlines.update(
            LeafText(node), previous: Self.inlines(of: takePrevious(ifKey: key, isLeaf: isLeaf)), options: options,
            references: references, work: &work)
    }

    static func paragraphKey(_ node: BlockNode, references: [String: LinkReference]) -> Key {
        .paragraph(
            startLine: node.startLine, startOffset: node.startOffset, textStart: node.textStart,
            references: references.count)
    }

    // MARK: Pending table header

    /// Records that the leaf paragraph `node` showed as a pending table header, the tail's last
    /// block: the next read whose pending line only grew builds that header again from its cells.
    mutating func markPendingHeader(_ node: BlockNode, references: [String: LinkReference]) {
        key = .pendingHeader(
            startLine: node.startLine, startOffset: node.startOffset, textStart: node.textStart,
            references: references.count)
    }

    /// The pending table header of a paragraph's last line, `nil` when that line does not show as
    /// one (`BlockMaterializer.pendingTableHeader` decides the same way).
    static func pendingHeader(
        _ lastLine: ArraySlice<UInt8>, options: MarkdownOptions, references: [String: LinkReference],
        work: inout Int
    ) -> Table? {
        let line = ByteClass.trimmed(lastLine)
        guard line.first == UInt8(ascii: "|"), line.count > 1 else { return nil }
        var parser = InlineParser(options: options, references: references, closesOpenConstructs: true)
        let cells = TableSyntax.cells(of: line, columns: nil)
        var header: [[Inline]] = []
        header.reserveCapacity(cells.count)
        for cell in cells { header.append(parser.parse(cell[...])) }
        work += parser.work + line.count
        return Table(alignments: Array(repeating: .none, count: cells.count), header: header, rows: [], isPending: true)
    }

    // MARK: Heading

    /// An ATX heading still being typed: its line is short, so its text is parsed whole each time.
    mutating func heading(
        _ node: BlockNode, options: MarkdownOptions, references: [String: LinkReference], work: inout Int
    ) -> [Inline] {
        _ = takePrevious(ifKey: .heading(startLine: node.startLine, references: references.count), isLeaf: true)
        // A setext heading has its text; an ATX heading being typed has its line.
        let text = node.hasPendingPart ? BlockParser.headingText(node.pendingPart) : node.text
        return Self.headingInlines(text, options: options, references: references, work: &work)
    }

    static func headingInlines(
        _ text: ArraySlice<UInt8>, options: MarkdownOptions, references: [String: LinkReference], work: inout Int
    ) -> [Inline] {
        var parser = InlineParser(options: options, references: references, closesOpenConstructs: true)
        let inlines = parser.parse(text)
        work += parser.work
        return inlines
    }

    // MARK: Code

    mutating func code(_ node: BlockNode, isLeaf: Bool, work: inout Int) -> String {
        let key = Self.codeKey(node)
        return code(
            LeafText(node), previous: Self.codeBlock(of: takePrevious(ifKey: key, isLeaf: isLeaf))?.code, work: &work)
    }

    static func codeKey(_ node: BlockNode) -> Key { .code(startLine: node.startLine, textStart: node.textStart) }

    private mutating func code(_ text: LeafText, previous: consuming String?, work: inout Int) -> String {
        let count = text.count
        if var code = consume previous, codeBytes > 0, count >= codeBytes,
            code.utf8.count == codeBytes, code.utf8.last == 0x0A, !Self.isContinuationByte(text[codeBytes - 1])
        {
            // The last line ending was the end of the pending line: the text goes on from there.
            code.removeSubrange(code.utf8.index(before: code.endIndex)...)
            code += ByteClass.string(text.bytes(from: codeBytes - 1))
            work += count - codeBytes + 1
            codeBytes = count
            return code
        }
        work += count
        codeBytes = count
        return ByteClass.string(text.bytes(from: 0))
    }

    // MARK: Table

    mutating func table(
        _ node: BlockNode, isLeaf: Bool, options: MarkdownOptions, references: [String: LinkReference],
        work: inout Int
    ) -> Table {
        let columns = node.table.alignments.count
        let key = Self.tableKey(node, references: references)
        var parser = InlineParser(options: options, references: references)
        var steps = 0
        defer { work += steps }
        func cell(_ bytes: [UInt8]) -> [Inline] {
            let inlines = parser.parse(bytes[...])
            steps += parser.work
            parser.work = 0
            return inlines
        }
        func cells(_ row: [[UInt8]]) -> [[Inline]] { row.prefix(columns).map(cell) }
        let rows = node.table.rows
        if var table = Self.table(of: takePrevious(ifKey: key, isLeaf: isLeaf)), table.rows.count == rowCount,
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

    static func tableKey(_ node: BlockNode, references: [String: LinkReference]) -> Key {
        .table(startLine: node.startLine, columns: node.table.alignments.count, references: references.count)
    }

    // MARK: In place

    /// For a read where only the pending part of the last read's leaf grew (its text is `text`):
    /// updates the last block of `blocks` in place, rebuilding only the blocks on the way to it.
    /// Returns `false` when `blocks` does not end with that leaf's value (then `blocks` is lost).
    mutating func updateInPlace(
        _ text: LeafText, blocks: inout [Block], options: MarkdownOptions, references: [String: LinkReference],
        work: inout Int
    ) -> Bool {
        guard let key, let last = blocks.popLast() else { return false }
        var steps = 0
        let updated = replacingLastLeaf(
            of: consume last, key: key, text: text, options: options, references: references, work: &steps)
        work += steps
        guard let updated else {
            self.key = nil
            return false
        }
        blocks.append(updated)
        return true
    }

    /// `block` with its last leaf (descending into block quotes and lists) updated. Each level is
    /// taken apart before the next is touched, so that the leaf is updated uniquely referenced.
    private mutating func replacingLastLeaf(
        of block: consuming Block, key: Key, text: LeafText, options: MarkdownOptions,
        references: [String: LinkReference], work: inout Int
    ) -> Block? {
        work += 1
        var block = consume block
        if case .blockQuote(var children) = block {
            block = .thematicBreak
            guard let last = children.popLast(),
                let new = replacingLastLeaf(
                    of: consume last, key: key, text: text, options: options, references: references, work: &work)
            else { return nil }
            children.append(new)
            return .blockQuote(children)
        }
        if case .list(var list) = block {
            block = .thematicBreak
            guard var item = list.items.popLast(), let last = item.blocks.popLast(),
                let new = replacingLastLeaf(
                    of: consume last, key: key, text: text, options: options, references: references, work: &work)
            else { return nil }
            item.blocks.append(new)
            list.items.append(item)
            return .list(list)
        }
        return updatedLeaf(consume block, key: key, text: text, options: options, references: references, work: &work)
    }

    /// The leaf `leaf`, the last read's value of the block with `key`, for its text `text`.
    private mutating func updatedLeaf(
        _ leaf: consuming Block, key: Key, text: LeafText, options: MarkdownOptions,
        references: [String: LinkReference], work: inout Int
    ) -> Block? {
        switch key {
        case .paragraph:
            // A last line that starts with `|` may show as a table header: rebuilt.
            guard !options.tables || ByteClass.trimmed(text.pending).first != UInt8(ascii: "|"),
                let inlines = Self.inlines(of: consume leaf)
            else { return nil }
            return .paragraph(
                paragraphInlines.update(
                    text, previous: consume inlines, options: options, references: references, work: &work))
        case .code:
            guard var block = Self.codeBlock(of: consume leaf) else { return nil }
            let previous = block.code
            block.code = ""
            block.code = code(text, previous: consume previous, work: &work)
            return .codeBlock(block)
        case .heading:
            guard case .heading(let level, _) = leaf else { return nil }
            return .heading(
                level: level,
                Self.headingInlines(
                    BlockParser.headingText(text.pending), options: options, references: references, work: &work))
        case .pendingHeader:
            guard case .table(let table) = leaf, table.isPending,
                let header = Self.pendingHeader(text.pending, options: options, references: references, work: &work)
            else { return nil }
            return .table(header)
        case .table:
            return nil
        }
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
