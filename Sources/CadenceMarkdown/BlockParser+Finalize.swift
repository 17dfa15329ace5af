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
            remove = node.content.isEmpty
        case .codeBlock:
            finalizeCode(node)
        case .htmlBlock:
            node.content = Self.droppingTrailingBlankLines(node.content)
        case .list:
            node.endLine = node.children.last?.endLine ?? endLine
            node.isTight = Self.isTight(node)
        case .item:
            node.endLine = node.children.last?.endLine ?? node.startLine
        default:
            break
        }
        if !node.isSnapshotCopy && !remove { justClosed.append(node) }
        let parent = tip
        if remove {
            parent.children.removeLast()
        } else if parent.kind == .document {
            parent.children.removeLast()
            closed.append(node)
        }
    }

    /// Removes link reference definitions from the start of a paragraph, recording them.
    mutating func extractReferenceDefinitions(_ node: BlockNode) {
        var pos = 0
        let content = node.content
        while pos < content.count, content[pos] == UInt8(ascii: "["),
            let definition = LinkSyntax.scanDefinition(content, pos)
        {
            if references[definition.label] == nil { references[definition.label] = definition.reference }
            pos = definition.end
        }
        guard pos > 0 else { return }
        node.content = ByteClass.isBlank(content[pos...]) ? [] : Array(content[pos...])
    }

    private func finalizeCode(_ node: BlockNode) {
        if node.isFenced {
            let newline = node.content.firstIndex(of: 0x0A) ?? node.content.count
            node.info = TextEscapes.unescape(ByteClass.trimmed(node.content[..<newline]))
            node.content = newline < node.content.count ? Array(node.content[(newline + 1)...]) : []
        } else {
            node.content = Self.droppingTrailingBlankLines(node.content)
            node.content.append(0x0A)
        }
    }

    /// Drops trailing lines made of spaces only, and the final line ending.
    static func droppingTrailingBlankLines(_ content: [UInt8]) -> [UInt8] {
        var end = content.count
        var cut = end
        while end > 0 {
            let c = content[end - 1]
            if c == 0x0A {
                cut = end - 1
            } else if c != 0x20 {
                break
            }
            end -= 1
        }
        return Array(content[..<cut])
    }

    /// A list is loose when blank lines separate any two of its items or any two blocks of an item.
    static func isTight(_ list: BlockNode) -> Bool {
        let items = list.children
        for (index, item) in items.enumerated() {
            if index + 1 < items.count, items[index + 1].startLine - item.endLine > 1 { return false }
            let blocks = item.children
            for k in 0..<max(0, blocks.count - 1) where blocks[k + 1].startLine - blocks[k].endLine > 1 {
                return false
            }
        }
        return true
    }
}
