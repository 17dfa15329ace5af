/// Renders a markdown tree to HTML, byte for byte as the CommonMark reference renderers do
/// (cmark-gfm for the GFM extensions). Citations become superscript links to `#source-N`.
///
/// ```swift
/// let html = HTMLRenderer().render(MarkdownParser(options: .gfm).parse("*hi*"))
/// // "<p><em>hi</em></p>\n"
/// ```
public struct HTMLRenderer: Sendable {
    /// Escape `<script>`, `<style>`, `<title>`… in raw HTML (GFM "disallowed raw HTML").
    public var tagFilter: Bool
    /// Citation `[n]` links to `citationHrefPrefix + n`.
    public var citationHrefPrefix: String
    /// Which citations to draw and mark; `nil` draws every `[n]` as a citation. A number that is not
    /// a source stays the text `[n]`; an unsupported citation gets the class `citation unsupported`.
    public var citations: CitationDisplay?

    public init(tagFilter: Bool = true, citationHrefPrefix: String = "#source-", citations: CitationDisplay? = nil) {
        self.tagFilter = tagFilter
        self.citationHrefPrefix = citationHrefPrefix
        self.citations = citations
    }

    public func render(_ tree: MarkdownTree) -> String { render(tree.blocks) }

    public func render(_ blocks: [Block]) -> String {
        var writer = Writer(renderer: self, cursor: citations.map(CitationCursor.init))
        writer.blocks(blocks, tight: false)
        return writer.string()
    }

    /// Writes UTF-8 bytes, escaping text as it copies it: one buffer, no string per piece.
    struct Writer: ~Copyable {
        let renderer: HTMLRenderer
        let cursor: CitationCursor?
        var out = ByteOutput(capacity: 4096)

        init(renderer: HTMLRenderer, cursor: CitationCursor?) {
            self.renderer = renderer
            self.cursor = cursor
        }

        /// The output as a string. Every byte written came from a `String` or is ASCII, and every
        /// piece was cut next to an ASCII byte, so the bytes are valid UTF-8 by construction: they
        /// are copied without being validated again (a scalar-by-scalar pass over the whole page).
        /// Control characters HTML forbids are replaced (see `firstForbiddenControl(in:)`).
        func string() -> String {
            out.withBytes { bytes in
                assert(String(validating: bytes, as: UTF8.self) != nil, "the HTML writer cut a UTF-8 sequence")
                if let first = HTMLRenderer.firstForbiddenControl(in: bytes) {
                    return HTMLRenderer.replacingForbiddenControls(bytes, from: first)
                }
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    return String(copying: unsafe UTF8Span(unchecked: bytes.span, isKnownASCII: false))
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }

        mutating func put(_ s: StaticString) {
            out.append(s)
        }

        mutating func put(_ s: String) {
            var s = s
            s.withUTF8 { out.append($0) }
        }

        mutating func put(_ n: Int) {
            if n < 0 { out.append(UInt8(ascii: "-")) }
            var value = n.magnitude
            let start = out.count
            repeat {
                out.append(0x30 + UInt8(value % 10))
                value /= 10
            } while value > 0
            out.reverse(from: start)  // the digits were written last first
        }

        /// `s` with `&`, `<`, `>` and `"` escaped.
        mutating func putEscaped(_ s: String) {
            var s = s
            s.withUTF8 { b in
                guard let base = b.baseAddress else { return }
                var start = 0
                var i = 0
                while i < b.count {
                    // Eight bytes at a time while none is `&`, `<`, `>` or `"`; else those eight one by one.
                    if i + 8 <= b.count {
                        let word = ByteWord(base, i)
                        if !(word.holds(0x26) || word.holds(0x3C) || word.holds(0x3E) || word.holds(0x22)) {
                            i += 8
                            continue
                        }
                    }
                    let end = min(i + 8, b.count)
                    while i < end {
                        let c = b[i]
                        if c == 0x26 || c == 0x3C || c == 0x3E || c == 0x22 {
                            out.append(UnsafeBufferPointer(rebasing: b[start..<i]))
                            switch c {
                            case 0x26: put("&amp;")
                            case 0x3C: put("&lt;")
                            case 0x3E: put("&gt;")
                            default: put("&quot;")
                            }
                            start = i + 1
                        }
                        i += 1
                    }
                }
                out.append(UnsafeBufferPointer(rebasing: b[start..<b.count]))
            }
        }

        /// Raw HTML, with the GFM tag filter if it is on.
        mutating func putRaw(_ html: String) {
            if renderer.tagFilter { HTMLRenderer.filterTags(html, into: &out) } else { put(html) }
        }

        mutating func cr() {
            if let last = out.last, last != 0x0A { out.append(0x0A) }
        }

        mutating func blocks(_ blocks: [Block], tight: Bool) {
            for block in blocks { self.block(block, tight: tight) }
        }

        mutating func block(_ block: Block, tight: Bool) {
            switch block {
            case .paragraph(let inlines):
                if tight {
                    self.inlines(inlines)
                } else {
                    cr()
                    put("<p>")
                    self.inlines(inlines)
                    put("</p>\n")
                }
            case .heading(let level, let inlines):
                cr()
                put("<h")
                put(level)
                put(">")
                self.inlines(inlines)
                put("</h")
                put(level)
                put(">\n")
            case .thematicBreak:
                cr()
                put("<hr />\n")
            case .blockQuote(let children):
                cr()
                put("<blockquote>\n")
                blocks(children, tight: false)
                cr()
                put("</blockquote>\n")
            case .list(let list):
                self.list(list)
            case .codeBlock(let code):
                cr()
                put("<pre><code")
                if let language = code.language {
                    put(" class=\"language-")
                    putEscaped(language)
                    put("\"")
                }
                put(">")
                putEscaped(code.code)
                put("</code></pre>\n")
            case .htmlBlock(let html):
                cr()
                putRaw(html)
                put("\n")
            case .table(let table):
                self.table(table)
            }
        }

        mutating func list(_ list: MarkdownList) {
            cr()
            let ordered: Bool
            switch list.kind {
            case .bullet:
                ordered = false
                put("<ul>\n")
            case .ordered(let start, _):
                ordered = true
                if start == 1 {
                    put("<ol>\n")
                } else {
                    put("<ol start=\"")
                    put(start)
                    put("\">\n")
                }
            }
            for item in list.items {
                put("<li>")
                if let checked = item.checkbox {
                    put(
                        checked
                            ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> "
                            : "<input type=\"checkbox\" disabled=\"\" /> ")
                }
                blocks(item.blocks, tight: list.isTight)
                put("</li>\n")
            }
            cr()
            put(ordered ? "</ol>\n" : "</ul>\n")
        }

        mutating func table(_ table: Table) {
            cr()
            put("<table>\n<thead>\n<tr>\n")
            for (index, cell) in table.header.enumerated() {
                self.cell(header: true, cell, table.alignments.indices.contains(index) ? table.alignments[index] : .none)
            }
            put("</tr>\n</thead>\n")
            if !table.rows.isEmpty {
                put("<tbody>\n")
                for row in table.rows {
                    put("<tr>\n")
                    for (index, cell) in row.enumerated() {
                        self.cell(
                            header: false, cell, table.alignments.indices.contains(index) ? table.alignments[index] : .none)
                    }
                    put("</tr>\n")
                }
                put("</tbody>\n")
            }
            put("</table>\n")
        }

        mutating func cell(header: Bool, _ content: [Inline], _ alignment: Table.Alignment) {
            put(header ? "<th" : "<td")
            switch alignment {
            case .none: break
            case .left: put(" align=\"left\"")
            case .center: put(" align=\"center\"")
            case .right: put(" align=\"right\"")
            }
            put(">")
            inlines(content)
            put(header ? "</th>\n" : "</td>\n")
        }

        mutating func inlines(_ inlines: [Inline]) {
            for inline in inlines { self.inline(inline) }
        }

        mutating func inline(_ inline: Inline) {
            switch inline {
            case .text(let s): putEscaped(s)
            case .softBreak: put("\n")
            case .lineBreak: put("<br />\n")
            case .code(let s):
                put("<code>")
                putEscaped(s)
                put("</code>")
            case .html(let s): putRaw(s)
            case .emphasis(let c):
                put("<em>")
                inlines(c)
                put("</em>")
            case .strong(let c):
                put("<strong>")
                inlines(c)
                put("</strong>")
            case .strikethrough(let c):
                put("<del>")
                inlines(c)
                put("</del>")
            case .link(let destination, let title, let c):
                put("<a href=\"")
                putEscaped(destination ?? "")
                put("\"")
                attribute("title", title)
                put(">")
                inlines(c)
                put("</a>")
            case .image(let source, let title, let c):
                put("<img src=\"")
                putEscaped(source)
                put("\" alt=\"")
                putEscaped(Inline.plainText(c))
                put("\"")
                attribute("title", title)
                put(" />")
            case .citation(let numbers):
                for (n, mark) in cursor?.marks(numbers) ?? numbers.map({ ($0, .citation) }) {
                    switch mark {
                    case .text:
                        put("[")
                        put(n)
                        put("]")
                        continue
                    case .citation:
                        put("<sup class=\"citation\">")
                    case .unsupported:
                        put(
                            "<sup class=\"citation unsupported\" title=\"The cited source may not support this sentence\">"
                        )
                    }
                    put("<a href=\"")
                    putEscaped(renderer.citationHrefPrefix)
                    put(n)
                    put("\">[")
                    put(n)
                    put("]</a></sup>")
                }
            }
        }

        /// ` name="value"`, when the value is not empty.
        mutating func attribute(_ name: StaticString, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            put(" ")
            put(name)
            put("=\"")
            putEscaped(value)
            put("\"")
        }
    }

    static let filteredTags: [[UInt8]] = [
        "title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext",
    ].map { Array($0.utf8) }

    /// GFM tagfilter: `<title>` becomes `&lt;title>`, for the tags a browser would treat specially.
    static func filterTags(_ html: String, into out: inout ByteOutput) {
        var html = html
        html.withUTF8 { b in
            var start = 0
            for i in 0..<b.count where b[i] == 0x3C && isFilteredTag(b, i) {
                out.append(UnsafeBufferPointer(rebasing: b[start..<i]))
                out.append("&lt;")
                start = i + 1
            }
            out.append(UnsafeBufferPointer(rebasing: b[start..<b.count]))
        }
    }

    private static func isFilteredTag(_ b: UnsafeBufferPointer<UInt8>, _ pos: Int) -> Bool {
        var i = pos + 1
        if i < b.count && b[i] == UInt8(ascii: "/") { i += 1 }
        for t in filteredTags {
            guard i + t.count <= b.count else { continue }
            var matches = true
            for k in 0..<t.count where b[i + k] | 0x20 != t[k] {
                matches = false
                break
            }
            guard matches else { continue }
            let j = i + t.count
            if j == b.count { return true }
            let c = b[j]
            if ByteClass.isASCIIWhitespace(c) || c == UInt8(ascii: ">") { return true }
            if c == UInt8(ascii: "/"), j + 1 < b.count, b[j + 1] == UInt8(ascii: ">") { return true }
        }
        return false
    }
}
