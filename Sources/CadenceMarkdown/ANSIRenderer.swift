/// Renders a markdown tree for a terminal of a given width: wrapped paragraphs (wide characters
/// count two columns), styled headings and emphasis, code blocks with a gutter, lists, quotes,
/// tables fitted to the width, and citations as superscript markers.
///
/// Colour is an option, not read from the environment: pass `colors: false` when `NO_COLOR` is set
/// or the output is not a terminal.
///
/// ```swift
/// let text = ANSIRenderer(width: 72, colors: false).render(MarkdownParser().parse("# Hi\n\nSee [1]."))
/// ```
public struct ANSIRenderer: Sendable {
    public var width: Int
    public var colors: Bool
    /// Which citations to draw and mark; `nil` draws every `[n]` as a citation (for markdown with
    /// no answer behind it, as `cadence render` shows).
    public var citations: CitationDisplay?
    /// This render's walk over the citation numbers (each render gets its own).
    private var cursor: CitationCursor?

    public init(width: Int = 80, colors: Bool = true, citations: CitationDisplay? = nil) {
        self.width = max(width, 20)
        self.colors = colors
        self.citations = citations
    }

    public func render(_ tree: MarkdownTree) -> String { render(tree.blocks) }

    public func render(_ blocks: [Block]) -> String {
        var renderer = self
        renderer.cursor = citations.map(CitationCursor.init)
        return renderer.lines(blocks, width: width, depth: 0).map { $0 + "\n" }.joined()
    }

    /// Blocks as lines, separated by blank lines.
    func lines(_ blocks: [Block], width: Int, depth: Int, tight: Bool = false) -> [String] {
        var out: [String] = []
        for (index, block) in blocks.enumerated() {
            if index > 0 && !tight { out.append("") }
            out += lines(block, width: width, depth: depth)
        }
        return out
    }

    /// Nesting never narrows text below this many columns: past it, deeper quotes share their parent's
    /// bar and deeper list items stop indenting. Deep nesting (100 levels, the parser's limit) then
    /// still wraps text at a readable width, and the output stays proportional to the input instead of
    /// one character per line behind a hundred bars.
    static let minimumNestedWidth = 10

    func lines(_ block: Block, width: Int, depth: Int) -> [String] {
        let width = max(width, 1)
        switch block {
        case .paragraph(let inlines):
            return wrapped(spans(inlines, .init()), width: width)
        case .heading(let level, let inlines):
            let marker = TerminalSpan(text: String(repeating: "#", count: level) + " ", style: [.heading, .dim])
            var result = wrapped([marker] + spans(inlines, .heading), width: width)
            if level <= 2 {
                let rule = level == 1 ? "═" : "─"
                let w = min(width, result.map { TerminalText.width(of: strip($0)) }.max() ?? 0)
                result.append(style(String(repeating: rule, count: w), [.heading, .dim]))
            }
            return result
        case .thematicBreak:
            return [style(String(repeating: "─", count: width), .dim)]
        case .blockQuote(let children):
            guard width - 2 >= Self.minimumNestedWidth else { return lines(children, width: width, depth: depth) }
            let bar = style("│ ", .dim)
            return lines(children, width: width - 2, depth: depth).map { bar + $0 }
        case .list(let list):
            return self.list(list, width: width, depth: depth)
        case .codeBlock(let code):
            return self.code(code, width: width)
        case .htmlBlock(let html):
            return html.split(separator: "\n", omittingEmptySubsequences: false).map { style(String($0), .dim) }
        case .table(let table):
            return self.table(table, width: width)
        }
    }

    func list(_ list: MarkdownList, width: Int, depth: Int) -> [String] {
        var out: [String] = []
        let markers: [String]
        switch list.kind {
        case .bullet:
            let bullet = ["•", "◦", "▪"][depth % 3]
            markers = list.items.map { _ in bullet }
        case .ordered(let start, let delimiter):
            markers = list.items.indices.map { "\(start + $0)\(delimiter)" }
        }
        let markerWidth = (markers.map { TerminalText.width(of: $0) }.max() ?? 1) + 1
        for (index, item) in list.items.enumerated() {
            if index > 0 && !list.isTight { out.append("") }
            var marker = markers[index]
            marker = String(repeating: " ", count: markerWidth - 1 - TerminalText.width(of: marker)) + marker + " "
            let boxWidth = item.checkbox == nil ? 0 : 2
            // Too deep to indent: the marker on a line of its own, the item's blocks below it.
            let indents = width - markerWidth - boxWidth >= Self.minimumNestedWidth
            var body = lines(
                item.blocks, width: indents ? width - markerWidth - boxWidth : width, depth: depth + 1,
                tight: list.isTight)
            if !indents { body.insert("", at: 0) }
            if let checked = item.checkbox {
                let box = checked ? style("☑ ", .accent) : style("☐ ", .dim)
                body = body.isEmpty ? [box] : [box + body[0]] + body.dropFirst()
            }
            if body.isEmpty { body = [""] }
            out.append(style(marker, .accent) + body[0])
            let indent = indents ? String(repeating: " ", count: markerWidth + boxWidth) : ""
            out += body.dropFirst().map { $0.isEmpty ? "" : indent + $0 }
        }
        return out
    }

    func code(_ code: CodeBlock, width: Int) -> [String] {
        var out: [String] = []
        let title = code.language.map { "╭─ " + $0 } ?? "╭─"
        out.append(style(title, .dim))
        var text = code.code
        if text.hasSuffix("\n") { text.removeLast() }
        let gutter = style("│ ", .dim)
        let continuation = style("┆ ", .dim)
        if !text.isEmpty || code.isOpen {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let expanded = String(line).replacingTabs()
                for (k, piece) in TerminalText.hardWrap(expanded, width: width - 2).enumerated() {
                    out.append((k == 0 ? gutter : continuation) + style(piece, .code))
                }
            }
        }
        out.append(style(code.isOpen ? "╰─ …" : "╰─", .dim))
        return out
    }

    // MARK: Inline

    func spans(_ inlines: [Inline], _ base: TerminalStyle) -> [TerminalSpan] {
        var out: [TerminalSpan] = []
        for inline in inlines {
            switch inline {
            case .text(let s): out.append(TerminalSpan(text: s, style: base))
            case .softBreak: out.append(TerminalSpan(text: " ", style: base))
            case .lineBreak: out.append(TerminalSpan(text: "\n", style: base))
            case .code(let s): out.append(TerminalSpan(text: s, style: base.union(.code)))
            case .html(let s): out.append(TerminalSpan(text: s, style: base.union(.dim)))
            case .emphasis(let c): out += spans(c, base.union(.italic))
            case .strong(let c): out += spans(c, base.union(.bold))
            case .strikethrough(let c) where colors: out += spans(c, base.union(.strikethrough))
            case .strikethrough(let c):
                // Without escape codes struck text would read as if it stood: keep GFM's tildes.
                out.append(TerminalSpan(text: "~~", style: base))
                out += spans(c, base)
                out.append(TerminalSpan(text: "~~", style: base))
            case .link(let destination, _, let c):
                let text = spans(c, base.union(.link))
                out += text
                if let destination, !destination.isEmpty,
                    text.map(\.text).joined() != destination, !destination.hasPrefix("mailto:")
                {
                    out.append(TerminalSpan(text: " (" + destination + ")", style: base.union(.dim)))
                }
            case .image(let source, _, let c):
                out.append(
                    TerminalSpan(text: "[image: " + Inline.plainText(c) + "] " + source, style: base.union(.dim)))
            case .citation(let numbers):
                citation(numbers, base, into: &out)
            }
        }
        return out
    }

    /// Superscript markers that hug the word before them ("production¹"), `?` after one whose source
    /// may not support the sentence (visible without colours too), and `[n]` as text for a number
    /// that is not a source.
    func citation(_ numbers: [Int], _ base: TerminalStyle, into out: inout [TerminalSpan]) {
        let marks = cursor?.marks(numbers) ?? numbers.map { ($0, CitationDisplay.Mark.citation) }
        var afterMarker = false
        for (index, (number, mark)) in marks.enumerated() {
            guard mark != .text else {
                out.append(TerminalSpan(text: "[\(number)]", style: base))
                afterMarker = false
                continue
            }
            if index == 0, let last = out.last, last.text.hasSuffix(" ") {
                out[out.count - 1].text.removeLast()
            }
            out.append(
                TerminalSpan(text: (afterMarker ? "˒" : "") + TerminalText.superscript(number), style: base.union(.citation)))
            if mark == .unsupported { out.append(TerminalSpan(text: "?", style: base.union(.dim))) }
            afterMarker = true
        }
    }

    func wrapped(_ spans: [TerminalSpan], width: Int) -> [String] {
        TerminalText.wrap(spans, width: width).map { TerminalText.render($0, colors: colors) }
    }

    func style(_ text: String, _ style: TerminalStyle) -> String {
        TerminalText.render([TerminalSpan(text: text, style: style)], colors: colors)
    }

    /// Text without escape codes.
    func strip(_ line: String) -> String {
        var out = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                out.append(character)
            }
        }
        return out
    }
}

extension String {
    /// Tabs expanded to 4-column stops.
    func replacingTabs() -> String {
        guard contains("\t") else { return self }
        var out = ""
        var column = 0
        for character in self {
            if character == "\t" {
                let n = 4 - column % 4
                out += String(repeating: " ", count: n)
                column += n
            } else {
                out.append(character)
                column += TerminalText.width(of: character)
            }
        }
        return out
    }
}
