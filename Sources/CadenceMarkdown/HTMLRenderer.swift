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
        return writer.out
    }

    struct Writer {
        let renderer: HTMLRenderer
        let cursor: CitationCursor?
        var out = ""

        mutating func cr() {
            if !out.isEmpty && out.utf8.last != 0x0A { out += "\n" }
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
                    out += "<p>"
                    self.inlines(inlines)
                    out += "</p>\n"
                }
            case .heading(let level, let inlines):
                cr()
                out += "<h\(level)>"
                self.inlines(inlines)
                out += "</h\(level)>\n"
            case .thematicBreak:
                cr()
                out += "<hr />\n"
            case .blockQuote(let children):
                cr()
                out += "<blockquote>\n"
                blocks(children, tight: false)
                cr()
                out += "</blockquote>\n"
            case .list(let list):
                self.list(list)
            case .codeBlock(let code):
                cr()
                out += "<pre><code"
                if let language = code.language {
                    out += " class=\"language-"
                    out += HTMLRenderer.escape(language)
                    out += "\""
                }
                out += ">"
                out += HTMLRenderer.escape(code.code)
                out += "</code></pre>\n"
            case .htmlBlock(let html):
                cr()
                out += renderer.tagFilter ? HTMLRenderer.filterTags(html) : html
                out += "\n"
            case .table(let table):
                self.table(table)
            }
        }

        mutating func list(_ list: MarkdownList) {
            cr()
            let tag: String
            switch list.kind {
            case .bullet:
                tag = "ul"
                out += "<ul>\n"
            case .ordered(let start, _):
                tag = "ol"
                out += start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n"
            }
            for item in list.items {
                out += "<li>"
                if let checked = item.checkbox {
                    out +=
                        checked
                        ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> "
                        : "<input type=\"checkbox\" disabled=\"\" /> "
                }
                blocks(item.blocks, tight: list.isTight)
                out += "</li>\n"
            }
            cr()
            out += "</\(tag)>\n"
        }

        mutating func table(_ table: Table) {
            cr()
            out += "<table>\n<thead>\n<tr>\n"
            for (index, cell) in table.header.enumerated() {
                self.cell("th", cell, table.alignments.indices.contains(index) ? table.alignments[index] : .none)
            }
            out += "</tr>\n</thead>\n"
            if !table.rows.isEmpty {
                out += "<tbody>\n"
                for row in table.rows {
                    out += "<tr>\n"
                    for (index, cell) in row.enumerated() {
                        self.cell(
                            "td", cell, table.alignments.indices.contains(index) ? table.alignments[index] : .none)
                    }
                    out += "</tr>\n"
                }
                out += "</tbody>\n"
            }
            out += "</table>\n"
        }

        mutating func cell(_ tag: String, _ content: [Inline], _ alignment: Table.Alignment) {
            out += "<\(tag)"
            switch alignment {
            case .none: break
            case .left: out += " align=\"left\""
            case .center: out += " align=\"center\""
            case .right: out += " align=\"right\""
            }
            out += ">"
            inlines(content)
            out += "</\(tag)>\n"
        }

        mutating func inlines(_ inlines: [Inline]) {
            for inline in inlines { self.inline(inline) }
        }

        mutating func inline(_ inline: Inline) {
            switch inline {
            case .text(let s): out += HTMLRenderer.escape(s)
            case .softBreak: out += "\n"
            case .lineBreak: out += "<br />\n"
            case .code(let s):
                out += "<code>"
                out += HTMLRenderer.escape(s)
                out += "</code>"
            case .html(let s): out += renderer.tagFilter ? HTMLRenderer.filterTags(s) : s
            case .emphasis(let c): wrap("em", c)
            case .strong(let c): wrap("strong", c)
            case .strikethrough(let c): wrap("del", c)
            case .link(let destination, let title, let c):
                out += "<a href=\"" + HTMLRenderer.escape(destination ?? "") + "\""
                attribute("title", title)
                out += ">"
                inlines(c)
                out += "</a>"
            case .image(let source, let title, let c):
                out += "<img src=\"" + HTMLRenderer.escape(source) + "\""
                out += " alt=\"" + HTMLRenderer.escape(Inline.plainText(c)) + "\""
                attribute("title", title)
                out += " />"
            case .citation(let numbers):
                for (n, mark) in cursor?.marks(numbers) ?? numbers.map({ ($0, .citation) }) {
                    let link = "<a href=\"\(HTMLRenderer.escape(renderer.citationHrefPrefix))\(n)\">[\(n)]</a></sup>"
                    switch mark {
                    case .text: out += "[\(n)]"
                    case .citation: out += "<sup class=\"citation\">" + link
                    case .unsupported:
                        out += "<sup class=\"citation unsupported\" title=\"The cited source may not support this sentence\">" + link
                    }
                }
            }
        }

        /// ` name="value"`, when the value is not empty.
        mutating func attribute(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            out += " " + name + "=\"" + HTMLRenderer.escape(value) + "\""
        }

        mutating func wrap(_ tag: String, _ content: [Inline]) {
            out += "<\(tag)>"
            inlines(content)
            out += "</\(tag)>"
        }
    }

    /// Escapes `&`, `<`, `>` and `"`.
    static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static let filteredTags = [
        "title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext",
    ]

    /// GFM tagfilter: `<title>` becomes `&lt;title>`, for the tags a browser would treat specially.
    static func filterTags(_ html: String) -> String {
        let b = Array(html.utf8)
        guard b.contains(0x3C) else { return html }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == 0x3C && isFilteredTag(b, i) {
                out += Array("&lt;".utf8)
            } else {
                out.append(b[i])
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isFilteredTag(_ b: [UInt8], _ pos: Int) -> Bool {
        var i = pos + 1
        if i < b.count && b[i] == UInt8(ascii: "/") { i += 1 }
        for tag in filteredTags {
            let t = Array(tag.utf8)
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
