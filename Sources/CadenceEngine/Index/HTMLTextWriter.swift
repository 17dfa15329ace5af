/// Turns HTML tokens into readable, Markdown-ish text in reading order: `#` headings, paragraphs
/// separated by blank lines, `-` and `1.` list items indented by nesting, table rows as `| a | b |`,
/// and `pre` with its line breaks. It drops what is not the page's content (scripts, styles,
/// navigation, headers, footers, asides, forms, `noscript`, `template`, `svg`) and keeps the first
/// `title`.
///
/// It keeps no tree: each token costs a constant amount of work beyond its bytes, so malformed
/// HTML (end tags that close nothing, elements never closed) cannot make it slower. An element
/// left open just stays open: a list's indentation stops growing at ``maxIndentLevels``.
struct HTMLTextWriter {
    /// Elements dropped with everything inside them.
    static let droppedElements: Set<String> = [
        "script", "style", "nav", "header", "footer", "aside", "form", "button", "select", "textarea", "noscript",
        "template", "svg", "math", "iframe", "object", "canvas", "xmp", "noembed", "noframes", "dialog",
    ]
    /// Elements with no content and no end tag.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source",
        "track", "wbr", "frame",
    ]
    /// Elements that start and end a paragraph (a blank line around them).
    static let paragraphElements: Set<String> = [
        "p", "pre", "blockquote", "table", "dl", "figure", "address", "details", "hr", "h1", "h2", "h3", "h4", "h5",
        "h6", "ul", "ol", "menu",
    ]
    /// Elements that start and end a line.
    static let lineElements: Set<String> = [
        "div", "li", "dt", "dd", "br", "tr", "section", "article", "main", "body", "caption", "figcaption", "center",
        "summary", "legend", "option", "hgroup", "fieldset",
    ]
    static let maxIndentLevels = 8

    private struct ListLevel {
        var ordered: Bool
        var count = 0
    }

    private(set) var text: [UInt8] = []
    private(set) var title: [UInt8]?
    var work = 0

    /// The dropped element being skipped, and how many of its kind are open inside it.
    private var skipping: (name: String, depth: Int)?
    private var lists: [ListLevel] = []
    private var preDepth = 0
    private var tableDepth = 0
    /// The cells of the table row being read (outermost table), and the cell being read.
    private var row: [[UInt8]]?
    private var cell: [UInt8]?
    private var rowHasHeader = false
    private var rowsInTable = 0
    /// The raw-text element whose content comes next.
    private var rawTextOwner: String?
    /// Breaks, space and markers owed before the next character.
    private var pendingBreak = 0
    private var pendingSpace = false
    private var listMarker: [UInt8] = []
    private var headingMarker: [UInt8] = []
    private var scratch: [UInt8] = []

    mutating func consume(_ token: HTMLTokenizer.Token) {
        work += 1
        switch token {
        case .startTag(let name, _, let selfClosing): start(name, selfClosing: selfClosing)
        case .endTag(let name): end(name)
        case .rawText(let content):
            defer { rawTextOwner = nil }
            guard skipping == nil, rawTextOwner == "title", title == nil else { return }
            scratch.removeAll(keepingCapacity: true)
            HTMLEntityDecoder.decode(content, into: &scratch, work: &work)
            title = Self.collapsed(scratch)
        case .text(let content):
            guard skipping == nil else { return }
            scratch.removeAll(keepingCapacity: true)
            HTMLEntityDecoder.decode(content, into: &scratch, work: &work)
            write(scratch)
        }
    }

    private mutating func start(_ name: String, selfClosing: Bool) {
        if HTMLTokenizer.rawTextElements.contains(name) { rawTextOwner = name }
        if let (skipped, depth) = skipping {
            let foreign = skipped == "svg" || skipped == "math"
            if name == skipped, !(foreign && selfClosing) { skipping = (skipped, depth + 1) }
            return
        }
        if Self.droppedElements.contains(name) {
            // `<svg/>` closes itself (foreign content); `<nav/>` opens a nav, as in a browser.
            if selfClosing && (name == "svg" || name == "math") { return }
            skipping = (name, 1)
            return
        }
        switch name {
        case "ul", "ol", "menu":
            requestBreak(lists.isEmpty ? 2 : 1)
            lists.append(ListLevel(ordered: name == "ol"))
        case "li":
            requestBreak(1)
            let level = min(max(lists.count, 1), Self.maxIndentLevels)
            var marker = [UInt8](repeating: UInt8(ascii: " "), count: 2 * (level - 1))
            if lists.isEmpty || !lists[lists.count - 1].ordered {
                marker += Array("- ".utf8)
            } else {
                lists[lists.count - 1].count += 1
                marker += Array("\(lists[lists.count - 1].count). ".utf8)
            }
            listMarker = marker
        case "h1", "h2", "h3", "h4", "h5", "h6":
            requestBreak(2)
            let level = Int(name.utf8.last! - UInt8(ascii: "0"))
            headingMarker = [UInt8](repeating: UInt8(ascii: "#"), count: level) + [UInt8(ascii: " ")]
        case "pre":
            requestBreak(2)
            preDepth += 1
        case "table":
            tableDepth += 1
            if tableDepth == 1 {
                requestBreak(2)
                rowsInTable = 0
            } else {
                pendingSpace = true
            }
        case "tr" where tableDepth == 1:
            finishRow()
            row = []
        case "td", "th":
            guard tableDepth == 1 else {
                pendingSpace = true
                return
            }
            finishCell()
            if row == nil { row = [] }
            if name == "th" { rowHasHeader = true }
            cell = []
            pendingSpace = false
        default:
            requestBlockBreak(name)
        }
    }

    private mutating func end(_ name: String) {
        if let (skipped, depth) = skipping {
            if name == skipped { skipping = depth > 1 ? (skipped, depth - 1) : nil }
            return
        }
        switch name {
        case "ul", "ol", "menu":
            guard !lists.isEmpty else { return }  // closes no list
            lists.removeLast()
            requestBreak(lists.isEmpty ? 2 : 1)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            headingMarker = []
            requestBreak(2)
        case "pre":
            preDepth = max(0, preDepth - 1)
            requestBreak(2)
        case "table":
            if tableDepth == 1 {
                finishRow()
                requestBreak(2)
            }
            tableDepth = max(0, tableDepth - 1)
        case "tr" where tableDepth == 1:
            finishRow()
        case "td", "th":
            if tableDepth == 1 { finishCell() }
        default:
            requestBlockBreak(name)
        }
    }

    /// The break at the start or end of a block element: a blank line around paragraphs, a line
    /// break around lines, nothing for inline elements.
    private mutating func requestBlockBreak(_ name: String) {
        if Self.paragraphElements.contains(name) {
            requestBreak(2)
        } else if Self.lineElements.contains(name) {
            requestBreak(1)
        }
    }

    /// Asks for a line break (1) or a blank line (2) before the next character; inside a table
    /// cell, a space.
    private mutating func requestBreak(_ kind: Int) {
        if cell != nil {
            pendingSpace = true
        } else {
            pendingBreak = max(pendingBreak, kind)
        }
    }

    /// Writes decoded text, collapsing whitespace outside `pre`.
    private mutating func write(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            work += 1
            let c = bytes[i]
            if c == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0xA0 {  // no-break space
                pendingSpace = true
                i += 2
                continue
            }
            if HTMLTokenizer.isSpace(c) {
                if preDepth > 0, cell == nil {
                    // Preformatted: every space and line break as written (a CR is part of CRLF).
                    if c != 0x0D {
                        flushPending()
                        text.append(c == 0x0C ? 0x0A : c)
                    }
                } else {
                    pendingSpace = true
                }
                i += 1
                continue
            }
            flushPending()
            if cell != nil {
                if c == UInt8(ascii: "|") { cell!.append(UInt8(ascii: "\\")) }
                cell!.append(c)
            } else {
                text.append(c)
            }
            i += 1
        }
    }

    /// Writes the breaks, space and markers owed, before a character.
    private mutating func flushPending() {
        if cell != nil {
            if pendingSpace, cell!.isEmpty == false { cell!.append(0x20) }
            pendingSpace = false
            return
        }
        if pendingBreak > 0 {
            writeOwedBreaks()
        } else if pendingSpace, !text.isEmpty, text.last != 0x0A {
            text.append(0x20)
        }
        if pendingBreak > 0 || text.isEmpty || text.last == 0x0A {
            work += listMarker.count + headingMarker.count
            text += listMarker
            text += headingMarker
            listMarker = []
            headingMarker = []
        }
        pendingBreak = 0
        pendingSpace = false
    }

    /// Ends the text with the line breaks owed (none at its start).
    private mutating func writeOwedBreaks() {
        guard !text.isEmpty else { return }
        let trailing = text.last == 0x0A ? (text.count > 1 && text[text.count - 2] == 0x0A ? 2 : 1) : 0
        for _ in 0..<max(0, pendingBreak - trailing) { text.append(0x0A) }
    }

    private mutating func finishCell() {
        guard let content = cell else { return }
        row = (row ?? []) + [content]
        cell = nil
        pendingSpace = false
    }

    /// Writes the row read so far as `| a | b |`, and a `| --- |` line under a first row of headers.
    private mutating func finishRow() {
        finishCell()
        guard let cells = row else { return }
        row = nil
        defer { rowHasHeader = false }
        guard cells.contains(where: { !$0.isEmpty }) else { return }
        pendingBreak = max(pendingBreak, 1)
        listMarker = []
        headingMarker = []
        writeOwedBreaks()
        pendingBreak = 0
        pendingSpace = false
        text.append(UInt8(ascii: "|"))
        for content in cells { text += [0x20] + content + Array(" |".utf8) }
        if rowsInTable == 0 && rowHasHeader {
            text += [0x0A, UInt8(ascii: "|")]
            for _ in cells { text += Array(" --- |".utf8) }
        }
        rowsInTable += 1
        pendingBreak = 1
    }

    /// Finishes an open row; returns the text and the title.
    mutating func finish() -> (title: [UInt8], text: [UInt8]) {
        finishRow()
        while let last = text.last, HTMLTokenizer.isSpace(last) { text.removeLast() }
        return (title ?? [], text)
    }

    /// `bytes` with runs of whitespace (and no-break spaces) as single spaces, trimmed.
    static func collapsed(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var space = false
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if HTMLTokenizer.isSpace(c) || (c == 0xC2 && i + 1 < bytes.count && bytes[i + 1] == 0xA0) {
                space = true
                i += HTMLTokenizer.isSpace(c) ? 1 : 2
                continue
            }
            if space && !out.isEmpty { out.append(0x20) }
            space = false
            out.append(c)
            i += 1
        }
        return out
    }
}
