#if canImport(SwiftUI)
public import Foundation
import SwiftUI

/// Renders a markdown tree to an `AttributedString` for SwiftUI `Text` (Apple platforms only).
///
/// Inline styles use Foundation's `inlinePresentationIntent`; headings and citation markers use
/// SwiftUI fonts; citations link to `citationURLPrefix + n`.
///
/// ```swift
/// Text(AttributedStringRenderer().render(document.tree))
/// ```
public struct AttributedStringRenderer: Sendable {
    public var citationURLPrefix: String

    public init(citationURLPrefix: String = "cadence-source://") {
        self.citationURLPrefix = citationURLPrefix
    }

    public func render(_ tree: MarkdownTree) -> AttributedString { render(tree.blocks) }

    public func render(_ blocks: [Block]) -> AttributedString {
        var out = AttributedString()
        for (index, block) in blocks.enumerated() {
            if index > 0 { out += AttributedString("\n\n") }
            out += self.block(block, indent: "")
        }
        return out
    }

    private func block(_ block: Block, indent: String) -> AttributedString {
        switch block {
        case .paragraph(let content):
            return AttributedString(indent) + inlines(content, [])
        case .heading(let level, let content):
            var text = inlines(content, .stronglyEmphasized)
            text.swiftUI.font = level == 1 ? .title : level == 2 ? .title2 : level == 3 ? .title3 : .headline
            return text
        case .thematicBreak:
            return AttributedString("———")
        case .blockQuote(let children):
            var out = AttributedString()
            for (index, child) in children.enumerated() {
                if index > 0 { out += AttributedString("\n") }
                out += self.block(child, indent: indent + "▎ ")
            }
            return out
        case .list(let list):
            var out = AttributedString()
            for (index, item) in list.items.enumerated() {
                if index > 0 { out += AttributedString("\n") }
                var marker: String
                switch list.kind {
                case .bullet: marker = "• "
                case .ordered(let start, let delimiter): marker = "\(start + index)\(delimiter) "
                }
                if let checked = item.checkbox { marker += checked ? "☑ " : "☐ " }
                out += AttributedString(indent + marker)
                for (k, child) in item.blocks.enumerated() {
                    if k > 0 { out += AttributedString("\n") }
                    out += self.block(child, indent: k == 0 ? "" : indent + "    ")
                }
            }
            return out
        case .codeBlock(let code):
            var text = code.code
            if text.hasSuffix("\n") { text.removeLast() }
            return run(text, .code)
        case .htmlBlock(let html):
            return run(html, .code)
        case .table(let table):
            var out = AttributedString()
            for (index, row) in ([table.header] + table.rows).enumerated() {
                if index > 0 { out += AttributedString("\n") }
                for (k, cell) in row.enumerated() {
                    if k > 0 { out += AttributedString("\t") }
                    out += inlines(cell, index == 0 ? .stronglyEmphasized : [])
                }
            }
            return out
        }
    }

    private func run(_ text: String, _ intent: InlinePresentationIntent) -> AttributedString {
        var container = AttributeContainer()
        if !intent.isEmpty { container.inlinePresentationIntent = intent }
        return AttributedString(text, attributes: container)
    }

    private func inlines(_ content: [Inline], _ intent: InlinePresentationIntent) -> AttributedString {
        var out = AttributedString()
        for inline in content {
            switch inline {
            case .text(let s), .html(let s): out += run(s, intent)
            case .softBreak: out += run(" ", intent)
            case .lineBreak: out += run("\n", intent)
            case .code(let s): out += run(s, intent.union(.code))
            case .emphasis(let c): out += inlines(c, intent.union(.emphasized))
            case .strong(let c): out += inlines(c, intent.union(.stronglyEmphasized))
            case .strikethrough(let c): out += inlines(c, intent.union(.strikethrough))
            case .link(let destination, _, let c):
                var text = inlines(c, intent)
                if let destination, let url = URL(string: destination) { text.link = url }
                out += text
            case .image(_, _, let c):
                out += run(Inline.plainText(c), intent)
            case .citation(let numbers):
                for number in numbers {
                    var marker = run("\(number)", intent)
                    marker.link = URL(string: citationURLPrefix + String(number))
                    marker.swiftUI.font = .caption2
                    marker.swiftUI.baselineOffset = 6
                    out += marker
                }
            }
        }
        return out
    }
}
#endif
