import CadenceMarkdown

/// One block of a document: a paragraph, a list item, a code block or a table, with markdown
/// markers stripped and lines joined.
struct TextBlock: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case paragraph, listItem, code, table
    }

    var kind: Kind
    var text: String

    /// Whether sentences can be quoted from this block (code and tables are searched, not quoted).
    var isProse: Bool { kind == .paragraph || kind == .listItem }
}

/// A run of blocks under one heading.
struct Section: Sendable, Hashable {
    var heading: String?
    var anchor: String?
    var blocks: [TextBlock]
}

/// The markdown that matters for retrieval, read by CadenceMarkdown's parser (CommonMark with the
/// GFM tables, in strict mode: a `[1]` in a document is text, not a citation): headings start
/// sections; paragraphs, list items, code blocks, tables and the paragraphs of block quotes are
/// its blocks. Plain text reads as paragraphs.
///
/// ```swift
/// let sections = MarkdownBlocks.sections(in: "# Retry\n\nBack off.\n\n- Add jitter.")
/// sections[0].heading           // "Retry"
/// sections[0].blocks.map(\.text)  // ["Back off.", "Add jitter."]
/// ```
enum MarkdownBlocks {
    static func sections(in text: String) -> [Section] {
        var reader = SectionReader()
        reader.read(parse(text), in: nil)
        return reader.finish()
    }

    /// The text of the first heading, if any. The text is fed to the parser a line at a time and
    /// the search stops at the first committed heading, so a document that starts with its title
    /// costs a line or two, not the whole parse that ``sections(in:)`` makes of it again.
    static func firstHeading(in text: String) -> String? {
        var document = MarkdownDocument(options: .gfm)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            document.append(line)
            if !lines.isEmpty { document.append("\n") }
            if let heading = firstHeading(in: document.takeCommitted()) { return heading }
        }
        return firstHeading(in: document.finish().blocks)
    }

    /// A GitHub-style anchor: lowercased, punctuation dropped, spaces as hyphens.
    static func anchor(for heading: String) -> String {
        var anchor = ""
        for character in heading.lowercased() {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                anchor.append(character)
            } else if character == " " {
                anchor.append("-")
            }
        }
        return anchor
    }

    /// Inline content as a reader should see it in a quote: emphasis and link markup gone (a link's
    /// text kept), an image dropped, line breaks as spaces; a code span stays one, in backticks, so
    /// that a quote of it still reads as code.
    static func plainText(_ inlines: [Inline]) -> String {
        var out = ""
        appendPlainText(inlines, to: &out)
        return out
    }

    private static func appendPlainText(_ inlines: [Inline], to out: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let text), .html(let text): out += text
            case .code(let code):
                let fence = String(repeating: "`", count: longestBacktickRun(in: code) + 1)
                let pad = code.hasPrefix("`") || code.hasSuffix("`") ? " " : ""
                out += fence + pad + code + pad + fence
            case .softBreak, .lineBreak: out += " "
            case .emphasis(let content), .strong(let content), .strikethrough(let content), .link(_, _, let content):
                appendPlainText(content, to: &out)
            case .image: break
            case .citation(let numbers): out += numbers.map { "[\($0)]" }.joined()
            }
        }
    }

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for byte in text.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    private static func parse(_ text: String) -> [Block] {
        MarkdownParser(options: .gfm).parse(text).blocks
    }

    private static func firstHeading(in blocks: [Block]) -> String? {
        for block in blocks {
            switch block {
            case .heading(_, let content): return plainText(content).trimmed
            case .blockQuote(let inner):
                if let heading = firstHeading(in: inner) { return heading }
            case .list(let list):
                for item in list.items {
                    if let heading = firstHeading(in: item.blocks) { return heading }
                }
            default: continue
            }
        }
        return nil
    }
}

/// Collects a document's blocks into sections, one per heading.
private struct SectionReader {
    private var sections: [Section] = []
    private var current = Section(heading: nil, anchor: nil, blocks: [])
    private var anchors: [String: Int] = [:]

    /// Reads `blocks`; `container` is the kind their paragraphs take (a list item's, say).
    mutating func read(_ blocks: [Block], in container: TextBlock.Kind?) {
        for block in blocks {
            switch block {
            case .heading(_, let content):
                startSection(MarkdownBlocks.plainText(content).trimmed)
            case .paragraph(let content):
                add(container ?? .paragraph, MarkdownBlocks.plainText(content).trimmed)
            case .blockQuote(let inner):
                read(inner, in: container)
            case .list(let list):
                for item in list.items { read(item.blocks, in: .listItem) }
            case .codeBlock(let code):
                add(.code, code.code.hasSuffix("\n") ? String(code.code.dropLast()) : code.code)
            case .table(let table):
                let rows = [table.header] + table.rows
                let text = rows.map { row in
                    row.map { MarkdownBlocks.plainText($0).trimmed }.filter { !$0.isEmpty }.joined(separator: "; ")
                }
                add(.table, text.filter { !$0.isEmpty }.joined(separator: "\n"))
            case .htmlBlock, .thematicBreak:
                continue
            }
        }
    }

    mutating func finish() -> [Section] {
        if current.heading != nil || !current.blocks.isEmpty { sections.append(current) }
        return sections
    }

    private mutating func add(_ kind: TextBlock.Kind, _ text: String) {
        if text.wordCount > 0 { current.blocks.append(TextBlock(kind: kind, text: text)) }
    }

    private mutating func startSection(_ heading: String) {
        if current.heading != nil || !current.blocks.isEmpty { sections.append(current) }
        var anchor = MarkdownBlocks.anchor(for: heading)
        if let seen = anchors[anchor] {
            anchors[anchor] = seen + 1
            anchor += "-\(seen + 1)"
        } else {
            anchors[anchor] = 0
        }
        current = Section(heading: heading, anchor: anchor, blocks: [])
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmed: String { String(Substring(self).trimmingSpaces()) }
}

extension StringProtocol {
    /// The number of runs of non-whitespace, counted on UTF-8 bytes (spaces, tabs, CR and LF).
    var wordCount: Int {
        var count = 0
        var inWord = false
        for byte in utf8 {
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if !isSpace && !inWord { count += 1 }
            inWord = !isSpace
        }
        return count
    }
}
