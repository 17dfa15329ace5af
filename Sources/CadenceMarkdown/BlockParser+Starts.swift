/// Block starts, tried in the spec's order of precedence.
extension BlockParser {
    enum StartResult { case none, container, leaf }

    /// Containers nest at most this deep; deeper `>` and list markers are text. This keeps
    /// recursion over the tree bounded on hostile input.
    static let maximumDepth = 100

    mutating func tryBlockStarts(_ container: BlockNode) -> StartResult {
        let c = peek(nextNonspace)
        let mayNest = stack.count < Self.maximumDepth
        if !indented {
            switch c {
            case UInt8(ascii: ">") where mayNest:
                advanceNextNonspace()
                advanceOffset(1, columns: false)
                skipSpaceAfterQuoteMarker()
                closeUnmatchedBlocks()
                addChild(.blockQuote)
                return .container
            case UInt8(ascii: "#"):
                if startATXHeading() { return .leaf }
            case UInt8(ascii: "`"), UInt8(ascii: "~"):
                if startFence() { return .leaf }
            case UInt8(ascii: "<"):
                let allowType7 = container.kind != .paragraph && !(!allClosed && !blank && tip.kind == .paragraph)
                let start = HTMLSyntax.blockStart(line, nextNonspace, allowType7: allowType7, work: &work)
                if start != nil || HTMLSyntax.blockStartMayChange(line, nextNonspace, allowType7: allowType7, work: &work) {
                    lineEndSensitive = true
                }
                if let type = start {
                    closeUnmatchedBlocks()
                    addChild(.htmlBlock).htmlType = type
                    return .leaf
                }
            default: break
            }
            if container.kind == .paragraph, c == UInt8(ascii: "=") || c == UInt8(ascii: "-"),
                startSetextHeading(container)
            {
                return .leaf
            }
            if let c, c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_"), isThematicBreak() {
                closeUnmatchedBlocks()
                addChild(.thematicBreak)
                advanceOffset(line.count - offset, columns: false)
                return .leaf
            }
        }
        if mayNest, !indented || container.kind == .list, let data = parseListMarker(container) {
            closeUnmatchedBlocks()
            if tip.kind != .list || !tip.listData.matches(data) { addChild(.list).listData = data }
            addChild(.item).listData = data
            return .container
        }
        if indented && tip.kind != .paragraph && !blank {
            advanceOffset(4, columns: true)
            closeUnmatchedBlocks()
            addChild(.codeBlock)
            return .leaf
        }
        if options.tables, !indented, container.kind == .paragraph, startTable(container) {
            return .leaf
        }
        return .none
    }

    private mutating func startATXHeading() -> Bool {
        var i = nextNonspace
        while i < line.count && line[i] == UInt8(ascii: "#") { i += 1 }
        let level = i - nextNonspace
        guard level <= 6, i == line.count || ByteClass.isSpaceOrTab(line[i]) else { return false }
        if i == line.count { lineEndSensitive = true }  // more `#` may follow
        advanceNextNonspace()
        advanceOffset(level, columns: false)
        closeUnmatchedBlocks()
        let heading = addChild(.heading)
        heading.level = level
        if defersLastLine {
            // The text depends on how the line ends (a closing sequence): it is cut when read.
            heading.pendingPart = line[offset...]
            heading.hasPendingPart = true
            deferredLeaf = heading
            deferredOffset = offset
        } else {
            heading.content = Array(Self.headingText(line[offset...]))
        }
        advanceOffset(line.count - offset, columns: false)
        return true
    }

    /// An ATX heading's text: the rest of its line, trimmed, without a closing sequence of `#`s
    /// preceded by a space (or made only of `#`s).
    static func headingText(_ rest: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let text = ByteClass.trimmed(rest)
        var end = text.endIndex
        while end > text.startIndex && text[end - 1] == UInt8(ascii: "#") { end -= 1 }
        if end == text.startIndex { return text[end..<end] }
        if end < text.endIndex, ByteClass.isSpaceOrTab(text[end - 1]) {
            return ByteClass.trimmed(text[text.startIndex..<end])
        }
        return text
    }

    private mutating func startFence() -> Bool {
        let fenceChar = line[nextNonspace]
        var i = nextNonspace
        while i < line.count && line[i] == fenceChar { i += 1 }
        let length = i - nextNonspace
        guard length >= 3 else {
            if i == line.count { lineEndSensitive = true }
            return false
        }
        if fenceChar == UInt8(ascii: "`"), line[i...].contains(UInt8(ascii: "`")) { return false }
        lineEndSensitive = true  // the info string runs to the end of the line
        closeUnmatchedBlocks()
        let code = addChild(.codeBlock)
        code.isFenced = true
        code.fenceChar = fenceChar
        code.fenceLength = length
        code.fenceOffset = indent
        advanceNextNonspace()
        advanceOffset(length, columns: false)
        return true
    }

    private mutating func startSetextHeading(_ paragraph: BlockNode) -> Bool {
        let marker = line[nextNonspace]
        var i = nextNonspace
        var markersEnd = -1
        if let known = lineScans.underline, known.start == nextNonspace, known.marker == marker,
            known.end <= line.count
        {
            i = known.end
            if known.markersEnd < known.end { markersEnd = known.markersEnd }
        }
        let scanStart = i
        if markersEnd < 0 {
            while i < line.count && line[i] == marker { i += 1 }
            markersEnd = i
        }
        while i < line.count && ByteClass.isSpaceOrTab(line[i]) { i += 1 }
        work += i - scanStart
        guard i == line.count else { return false }
        lineEndSensitive = true
        if defersLastLine { lineScans.underline = (nextNonspace, marker, markersEnd, i) }
        closeUnmatchedBlocks()
        extractReferenceDefinitions(paragraph)
        guard !paragraph.text.isEmpty else { return false }
        let heading = makeNode(.heading, startLine: paragraph.startLine)
        heading.level = marker == UInt8(ascii: "=") ? 1 : 2
        heading.content = Array(ByteClass.trimmed(paragraph.text))
        replaceTip(with: heading)
        advanceOffset(line.count - offset, columns: false)
        return true
    }

    /// Replaces the open tip (a paragraph) with `node`, in its parent and on the stack.
    mutating func replaceTip(with node: BlockNode) {
        let parent = stack[stack.count - 2]
        parent.children[parent.children.count - 1] = node
        stack[stack.count - 1] = node
    }

    /// Whether the rest of the line is a thematic break. A scan that fails remembers how far it
    /// got: a later start before that point on the same line (a nested list item's) fails too, since
    /// it sees the same run of markers and spaces up to the same byte, or fewer markers to the end.
    private mutating func isThematicBreak() -> Bool {
        guard nextNonspace >= thematicBreakScannedTo else { return false }
        let marker = line[nextNonspace]
        var count = 0
        var i = nextNonspace
        if let known = lineScans.rule, known.start == nextNonspace, known.marker == marker, known.end <= line.count {
            i = known.end
            count = known.count
        }
        let scanStart = i
        defer { work += i - scanStart }
        while i < line.count {
            let c = line[i]
            if c == marker {
                count += 1
            } else if !ByteClass.isSpaceOrTab(c) {
                thematicBreakScannedTo = i
                return false
            }
            i += 1
        }
        lineEndSensitive = true
        if defersLastLine { lineScans.rule = (nextNonspace, marker, i, count) }
        if count < 3 { thematicBreakScannedTo = i }
        return count >= 3
    }

    private mutating func parseListMarker(_ container: BlockNode) -> BlockNode.ListData? {
        guard indent < 4, nextNonspace < line.count else { return nil }
        var data = BlockNode.ListData()
        data.markerOffset = indent
        let c = line[nextNonspace]
        var markerLength: Int
        if c == UInt8(ascii: "*") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            data.bulletChar = c
            markerLength = 1
        } else if ByteClass.isDigit(c) {
            var i = nextNonspace
            var start = 0
            while i < line.count, ByteClass.isDigit(line[i]), i - nextNonspace < 9 {
                start = start * 10 + Int(line[i] - 0x30)
                i += 1
            }
            if i == line.count { lineEndSensitive = true }
            guard i < line.count, line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ")") else { return nil }
            guard container.kind != .paragraph || start == 1 else { return nil }
            data.isOrdered = true
            data.start = start
            data.delimiter = line[i]
            markerLength = i + 1 - nextNonspace
        } else {
            return nil
        }
        let after = nextNonspace + markerLength
        if after == line.count { lineEndSensitive = true }
        guard after == line.count || ByteClass.isSpaceOrTab(line[after]) else { return nil }
        if container.kind == .paragraph, ByteClass.isBlank(line[after...]) {
            lineEndSensitive = true
            return nil
        }
        advanceNextNonspace()
        advanceOffset(markerLength, columns: true)
        let spacesStartColumn = column
        let spacesStartOffset = offset
        repeat {
            advanceOffset(1, columns: true)
        } while column - spacesStartColumn < 5 && peek(offset).map(ByteClass.isSpaceOrTab) == true
        let blankItem = offset >= line.count
        if blankItem { lineEndSensitive = true }
        let spacesAfterMarker = column - spacesStartColumn
        if spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem {
            data.padding = markerLength + 1
            column = spacesStartColumn
            offset = spacesStartOffset
            if let c = peek(offset), ByteClass.isSpaceOrTab(c) { advanceOffset(1, columns: true) }
        } else {
            data.padding = markerLength + spacesAfterMarker
        }
        return data
    }

    /// Turns the paragraph's last line into a table header when this line is a matching delimiter row.
    private mutating func startTable(_ paragraph: BlockNode) -> Bool {
        // A delimiter row holds only pipes, colons, dashes and spaces; any other byte rules it out
        // however the line goes on.
        guard TableSyntax.mayBeDelimiterRow(line[nextNonspace...]) else { return false }
        lineEndSensitive = true
        guard let alignments = TableSyntax.delimiterRow(line[nextNonspace...]) else { return false }
        var content = paragraph.text
        if content.last == 0x0A { content = content.dropLast() }
        let headerStart = (content.lastIndex(of: 0x0A) ?? (content.startIndex - 1)) + 1
        let header = TableSyntax.cells(of: content[headerStart...], columns: nil)
        guard header.count == alignments.count else { return false }
        closeUnmatchedBlocks()
        let table = makeNode(.table, startLine: paragraph.startLine)
        table.table.alignments = alignments
        table.table.header = header
        if headerStart > content.startIndex {
            let before = makeNode(.paragraph, startLine: paragraph.startLine)
            before.startOffset = paragraph.startOffset
            before.content = Array(paragraph.content[content.startIndex..<headerStart])
            before.isOpen = false
            before.endLine = lineNumber - 2
            extractReferenceDefinitions(before)
            table.startLine = lineNumber - 1
            if !before.isTextEmpty {
                if !before.isSnapshotCopy { justClosed.append(before) }
                insertClosedBeforeTip(before)
            }
        }
        replaceTip(with: table)
        advanceOffset(line.count - offset, columns: false)
        return true
    }

    private mutating func insertClosedBeforeTip(_ node: BlockNode) {
        let parent = stack[stack.count - 2]
        if parent.kind == .document {
            closed.append(node)
        } else {
            parent.children.insert(node, at: parent.children.count - 1)
        }
    }
}
