/// Closing blocks: the end-of-block work of each kind.
extension BlockParser {
    mutating func finalizeTip(endLine: Int) {
        let node = stack.removeLast()
        node.isOpen = false
        node.endLine = endLine
        var remove = false
        switch node.kind {
        case .paragraph:
            extractReferenceDefinitions(node)
            remove = node.isTextEmpty
        case .codeBlock:
            finalizeCode(node)
        case .htmlBlock:
            node.joinPendingPart()
            node.textEnd = Self.trailingBlankLinesStart(node.text)
        case .list:
            node.endLine = node.children.last?.endLine ?? endLine
            node.isTight = Self.isTight(node)
        case .item:
            node.endLine = max(node.children.last?.endLine ?? node.startLine, node.definitionLines.last?.upperBound ?? 0)
        default:
            break
        }
        if !node.isSnapshotCopy && !remove { justClosed.append(node) }
        let parent = tip
        if remove {
            parent.children.removeLast()
            if parent.kind == .item { parent.definitionLines.append(node.startLine...node.endLine) }
        } else if parent.kind == .document {
            parent.children.removeLast()
            closed.append(node)
        }
    }

    /// Removes link reference definitions from the start of a paragraph, recording them.
    mutating func extractReferenceDefinitions(_ node: BlockNode) {
        guard node.firstTextByte == UInt8(ascii: "[") else { return }
        // A tail read closes the open paragraph with its last line still pending: when no definition
        // can start it, the line is left pending, neither copied nor scanned again at each read.
        if node.hasPendingPart && !TailCache.mayStartDefinition(LeafText(node)) { return }
        node.joinPendingPart()
        var pos = node.textStart
        let content = node.content
        while pos < content.count, content[pos] == UInt8(ascii: "["),
            let definition = LinkSyntax.scanDefinition(content, pos, work: &work)
        {
            if references[definition.label] == nil {
                references[definition.label] = definition.reference
                definedLabels.append(definition.label)
            }
            pos = definition.end
        }
        guard pos > node.textStart else { return }
        // Later lines are appended after the definitions, as if the paragraph had started there.
        node.textStart = ByteClass.isBlank(content[pos...]) ? content.count : pos
    }

    private func finalizeCode(_ node: BlockNode) {
        if node.isFenced {
            // The first line is the info string; when it is still pending, the block is short.
            if node.text.isEmpty { node.joinPendingPart() }
            let text = node.text
            let newline = text.firstIndex(of: 0x0A) ?? text.endIndex
            node.info = TextEscapes.unescape(ByteClass.trimmed(text[..<newline]))
            node.textStart = newline < text.endIndex ? newline + 1 : text.endIndex
        } else {
            // The block ends on its last line with more than spaces: trailing blank lines belong to
            // it while it is open, but a blank line after it still separates it from what follows
            // (a list whose item holds the code and then a paragraph is loose).
            if node.hasPendingPart {
                // A last line with more than spaces keeps everything before it.
                if node.pendingPart.contains(where: { $0 != 0x20 }) { return }
                node.pendingPart = []
                node.hasPendingPart = false
                node.endLine -= 1
            }
            // Trailing blank lines go; the line ending of the last line stays.
            let cut = Self.trailingBlankLinesStart(node.text)
            node.endLine -= max(0, node.content[cut...].count(where: { $0 == 0x0A }) - 1)
            if cut < node.content.count && node.content[cut] == 0x0A {
                node.textEnd = cut + 1
            } else {
                node.content = Array(node.content[node.textStart..<cut]) + [0x0A]
                node.textStart = 0
                node.textEnd = -1
            }
        }
    }

    /// Where the trailing lines made of spaces only, and the final line ending, start in `text`
    /// (an index of the underlying array).
    static func trailingBlankLinesStart(_ text: ArraySlice<UInt8>) -> Int {
        var end = text.endIndex
        var cut = end
        while end > text.startIndex {
            let c = text[end - 1]
            if c == 0x0A {
                cut = end - 1
            } else if c != 0x20 {
                break
            }
            end -= 1
        }
        return cut
    }

    /// A list is loose when blank lines separate any two of its items or any two blocks of an item
    /// (link reference definitions included: they are blocks, though they render as nothing).
    static func isTight(_ list: BlockNode) -> Bool {
        let items = list.children
        for (index, item) in items.enumerated() {
            if index + 1 < items.count, items[index + 1].startLine - item.endLine > 1 { return false }
            if item.definitionLines.isEmpty {
                let blocks = item.children
                for k in 0..<max(0, blocks.count - 1) where blocks[k + 1].startLine - blocks[k].endLine > 1 {
                    return false
                }
            } else {
                let lines = (item.children.map { $0.startLine...$0.endLine } + item.definitionLines)
                    .sorted { $0.lowerBound < $1.lowerBound }
                for k in 0..<lines.count - 1 where lines[k + 1].lowerBound - lines[k].upperBound > 1 { return false }
            }
        }
        return true
    }
}
