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

/// A line-based reader of the markdown that matters for retrieval: ATX headings, paragraphs,
/// list items, fenced code, tables and block quotes. Plain text reads as paragraphs.
///
/// ```swift
/// let sections = MarkdownBlocks.sections(in: "# Retry\n\nBack off.\n\n- Add jitter.")
/// sections[0].heading           // "Retry"
/// sections[0].blocks.map(\.text)  // ["Back off.", "Add jitter."]
/// ```
enum MarkdownBlocks {
    static func sections(in text: String) -> [Section] {
        var reader = Reader()
        for line in lines(of: text) {
            reader.read(line)
        }
        return reader.finish()
    }

    /// The text of the first ATX heading, if any.
    static func firstHeading(in text: String) -> String? {
        var inFence = false
        for line in lines(of: text) {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inFence.toggle() }
            if !inFence, let heading = heading(in: Substring(trimmed)) { return heading.text }
        }
        return nil
    }

    /// The lines of `text`, split at LF, CRLF and CR. Works on UTF-8 bytes: splitting by
    /// `Character` would be far slower, and would see CRLF as one character.
    static func lines(of text: String) -> [Substring] {
        let cr = UInt8(ascii: "\r")
        var lines: [Substring] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var line = line
            if line.last == cr { line = line.dropLast() }
            if line.contains(cr) {
                lines += line.split(separator: cr, omittingEmptySubsequences: false).map { Substring($0) }
            } else {
                lines.append(Substring(line))
            }
        }
        return lines
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

    /// Inline markdown a reader should not see in a quote: `[text](url)` becomes `text`, images go.
    static func plainInline(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "[")) else { return String(text) }
        var output = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "[") {
            let isImage = open > rest.startIndex && rest[rest.index(before: open)] == "!"
            guard let close = rest[open...].firstIndex(of: "]"),
                rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == "(",
                let end = rest[close...].firstIndex(of: ")")
            else {
                output += rest[...open]
                rest = rest[rest.index(after: open)...]
                continue
            }
            output += isImage ? rest[..<rest.index(before: open)] : rest[..<open]
            if !isImage { output += rest[rest.index(after: open)..<close] }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return output
    }

    fileprivate static func heading(in line: Substring) -> (level: Int, text: String)? {
        let hashes = line.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingSpaces()
        while text.last == "#" { text = text.dropLast() }
        return (hashes, plainInline(text.trimmingSpaces()))
    }
}

private struct Reader {
    private var sections: [Section] = []
    private var current = Section(heading: nil, anchor: nil, blocks: [])
    private var anchors: [String: Int] = [:]
    private var pending: (kind: TextBlock.Kind, lines: [Substring])?
    private var fence: Substring?

    mutating func read(_ line: Substring) {
        let trimmed = line.trimmingSpaces()
        if let marker = fence {
            if trimmed.hasPrefix(marker) {
                flushBlock()
                fence = nil
            } else {
                pending?.lines.append(line)
            }
            return
        }
        if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
            flushBlock()
            fence = trimmed.prefix(3)
            pending = (.code, [])
        } else if trimmed.isEmpty {
            flushBlock()
        } else if let heading = MarkdownBlocks.heading(in: trimmed) {
            flushBlock()
            startSection(heading.text)
        } else if trimmed.first == "|" {
            if pending?.kind != .table { flushBlock() }
            if pending == nil { pending = (.table, []) }
            // Separator rows such as |---|:--:| carry no words.
            if trimmed.contains(where: { $0.isLetter || $0.isNumber }) { pending?.lines.append(trimmed) }
        } else if let item = Self.listItem(trimmed) {
            flushBlock()
            pending = (.listItem, [item])
        } else if trimmed.first == ">" {
            if pending?.kind != .paragraph { flushBlock() }
            if pending == nil { pending = (.paragraph, []) }
            pending?.lines.append(trimmed.dropFirst().trimmingSpaces())
        } else if pending != nil && pending?.kind != .code && pending?.kind != .table {
            pending?.lines.append(trimmed)
        } else {
            flushBlock()
            pending = (.paragraph, [trimmed])
        }
    }

    mutating func finish() -> [Section] {
        flushBlock()
        if current.heading != nil || !current.blocks.isEmpty { sections.append(current) }
        return sections
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

    private mutating func flushBlock() {
        guard let (kind, lines) = pending else { return }
        pending = nil
        let text: String
        switch kind {
        case .code: text = lines.joined(separator: "\n")
        case .table:
            text = lines.map { $0.split(separator: "|").map { $0.trimmingSpaces() }.joined(separator: "; ") }
                .joined(separator: "\n")
        case .paragraph, .listItem: text = MarkdownBlocks.plainInline(Substring(lines.joined(separator: " ")))
        }
        if text.wordCount > 0 { current.blocks.append(TextBlock(kind: kind, text: text)) }
    }

    /// The text of a list item line without its marker (`- `, `* `, `+ `, `1. `, `2) `).
    private static func listItem(_ line: Substring) -> Substring? {
        if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " {
            return line.dropFirst(2).trimmingSpaces()
        }
        let digits = line.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count < 4 else { return nil }
        let rest = line.dropFirst(digits.count)
        guard let marker = rest.first, marker == "." || marker == ")", rest.dropFirst().first == " " else {
            return nil
        }
        return rest.dropFirst(2).trimmingSpaces()
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
