/// Renders a markdown tree as an indented outline, one node per line: for debugging and tests.
///
/// ```swift
/// print(TreeRenderer().render(MarkdownParser().parse("# Hi")))
/// // heading level=1
/// //   text "Hi"
/// ```
public struct TreeRenderer: Sendable {
    public init() {}

    public func render(_ tree: MarkdownTree) -> String { render(tree.blocks) }

    /// Renders top-level blocks numbered from `firstIndex`: rendering a document's blocks in batches,
    /// each numbered from where the last ended, gives the outline of the whole.
    public func render(_ blocks: [Block], firstIndex: Int = 0) -> String {
        var out = ""
        for (index, block) in blocks.enumerated() {
            self.block(block, id: [firstIndex + index], depth: 0, into: &out)
        }
        return out
    }

    private func line(_ text: String, _ depth: Int, into out: inout String) {
        out += String(repeating: "  ", count: depth) + text + "\n"
    }

    private func block(_ block: Block, id: [Int], depth: Int, into out: inout String) {
        let label = "[" + id.map(String.init).joined(separator: ".") + "] "
        switch block {
        case .paragraph(let inlines):
            line(label + "paragraph", depth, into: &out)
            self.inlines(inlines, depth + 1, into: &out)
        case .heading(let level, let inlines):
            line(label + "heading level=\(level)", depth, into: &out)
            self.inlines(inlines, depth + 1, into: &out)
        case .thematicBreak:
            line(label + "thematic_break", depth, into: &out)
        case .blockQuote(let children):
            line(label + "block_quote", depth, into: &out)
            for (k, child) in children.enumerated() { self.block(child, id: id + [k], depth: depth + 1, into: &out) }
        case .list(let list):
            let kind: String
            switch list.kind {
            case .bullet(let marker): kind = "bullet marker=\(marker)"
            case .ordered(let start, let delimiter): kind = "ordered start=\(start) delimiter=\(delimiter)"
            }
            line(label + "list \(kind) tight=\(list.isTight)", depth, into: &out)
            for (k, item) in list.items.enumerated() {
                let box = item.checkbox.map { $0 ? " checked" : " unchecked" } ?? ""
                line("item\(box)", depth + 1, into: &out)
                for (j, child) in item.blocks.enumerated() {
                    self.block(child, id: id + [k, j], depth: depth + 2, into: &out)
                }
            }
        case .codeBlock(let code):
            line(
                label + "code_block info=\((code.info ?? "").debugDescription)\(code.isOpen ? " open" : "")", depth,
                into: &out)
            line(code.code.debugDescription, depth + 1, into: &out)
        case .htmlBlock(let html):
            line(label + "html_block " + html.debugDescription, depth, into: &out)
        case .table(let table):
            line(
                label + "table columns=\(table.alignments.count)\(table.isPending ? " pending" : "")", depth, into: &out
            )
            for cell in table.header {
                line("header_cell", depth + 1, into: &out)
                inlines(cell, depth + 2, into: &out)
            }
            for row in table.rows {
                line("row", depth + 1, into: &out)
                for cell in row {
                    line("cell", depth + 2, into: &out)
                    inlines(cell, depth + 3, into: &out)
                }
            }
        }
    }

    private func inlines(_ inlines: [Inline], _ depth: Int, into out: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let s): line("text " + s.debugDescription, depth, into: &out)
            case .softBreak: line("softbreak", depth, into: &out)
            case .lineBreak: line("linebreak", depth, into: &out)
            case .code(let s): line("code " + s.debugDescription, depth, into: &out)
            case .html(let s): line("html " + s.debugDescription, depth, into: &out)
            case .emphasis(let c):
                line("emph", depth, into: &out)
                self.inlines(c, depth + 1, into: &out)
            case .strong(let c):
                line("strong", depth, into: &out)
                self.inlines(c, depth + 1, into: &out)
            case .strikethrough(let c):
                line("strikethrough", depth, into: &out)
                self.inlines(c, depth + 1, into: &out)
            case .link(let destination, let title, let c):
                line(
                    "link destination=\((destination ?? "").debugDescription) title=\((title ?? "").debugDescription)",
                    depth, into: &out)
                self.inlines(c, depth + 1, into: &out)
            case .image(let source, let title, let c):
                line(
                    "image source=\(source.debugDescription) title=\((title ?? "").debugDescription)", depth, into: &out
                )
                self.inlines(c, depth + 1, into: &out)
            case .citation(let numbers):
                line("citation " + numbers.map(String.init).joined(separator: ","), depth, into: &out)
            }
        }
    }
}
