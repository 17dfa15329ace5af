import Testing

@testable import CadenceMarkdown

/// The renderer looks for the bytes it escapes eight at a time and reads only a word that holds one
/// byte by byte: every escape must be found wherever it falls in a word, next to multi-byte text.
@Suite struct HTMLEscapingTests {
    @Test(arguments: ["&", "<", ">", "\"", "&<", "\"é>"])
    func escapesAreFoundAtEveryOffsetOfAWord(_ special: String) {
        for offset in 0..<20 {
            let text = String(repeating: "a", count: offset) + special + "bcdéfghijklmnop" + special
            let escaped = text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
                .replacingAll("\"", "&quot;")
            // A code span keeps its text as it is: no markdown in it can swallow a `<` or `&`.
            let html = HTMLRenderer().render(MarkdownParser(options: .gfm).parse("`` " + text + " ``"))
            #expect(html == "<p><code>" + escaped + "</code></p>\n", "\(special.debugDescription) after \(offset) bytes")
        }
    }

    /// HTML allows no control character but ASCII whitespace; ESC passed through reached the terminal
    /// that `render --to html` printed to. Each one becomes U+FFFD, at every offset of a word, in
    /// text, code, raw HTML and link destinations alike; tab and form feed stay.
    @Test(arguments: ["\u{1B}", "\u{0}", "\u{7}", "\u{0B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{1B}[2J\u{1B}]0;x\u{7}"])
    func controlCharactersAreReplaced(_ control: String) {
        let replaced = String(String.UnicodeScalarView(control.unicodeScalars.map { $0.value < 0x20 || $0.value >= 0x7F ? "\u{FFFD}" : $0 }))
        for offset in 0..<10 {
            let lead = String(repeating: "a", count: offset)
            let html = HTMLRenderer().render(MarkdownParser(options: .gfm).parse("\(lead)é\(control)b\n"))
            #expect(!html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) })
            #expect(html.hasPrefix("<p>\(lead)é") && html.contains("b</p>"), "\(html.debugDescription)")
            #expect(html.contains(replaced), "\(control.debugDescription) after \(offset): \(html.debugDescription)")
        }
        for markdown in ["```\nx\(control)y\n```\n", "<div>\(control)</div>\n", "[a](<u\(control)v>)\n", "`\(control)`\n"] {
            let html = HTMLRenderer().render(MarkdownParser(options: .gfm).parse(markdown))
            #expect(!html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) },
                "\(markdown.debugDescription) → \(html.debugDescription)")
        }
        let whitespace = HTMLRenderer().render(MarkdownParser(options: .gfm).parse("```\na\tb\u{0C}c\n```\n"))
        #expect(whitespace.contains("\t") && whitespace.contains("\u{0C}"), "\(whitespace.debugDescription)")
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
