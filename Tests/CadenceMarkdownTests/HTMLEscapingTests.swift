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
}

extension String {
    fileprivate func replacingAll(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
