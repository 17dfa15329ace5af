import Testing

@testable import CadenceMarkdown

/// Reading the open tail after every chunk stays linear in the input, however long the open block
/// grows: a read costs about the chunk, not the block. Checked by counting work
/// (`MarkdownDocument.work`, which counts the tail's reads too), not by a clock: streamed in
/// 4-byte chunks with a read after each, the work stays under a small multiple of the input's
/// size, and doubling the input at most doubles it (with some slack).
@Suite("Tail linearity")
struct TailLinearityTests {
    /// Work per byte allowed, by case: deep nesting rebuilds its 100 levels of containers per read;
    /// a paragraph that starts with `[` may be a link reference definition until its label has
    /// failed, within 1,000 bytes, and each read until then scans it (a fixed cost, about 125,000
    /// steps in 4-byte chunks), while later reads do not.
    static let cases: [(name: String, perByte: Int, text: @Sendable (Int) -> String)] = [
        ("a very long open paragraph", 8, { String(repeating: "word ", count: $0 / 5) }),
        ("a long paragraph over many lines", 40, { String(repeating: "some words\n", count: $0 / 11) }),
        ("a long paragraph of markup", 30, { String(repeating: "**bold** [link](http://a.b) `code` [1] ", count: $0 / 40) }),
        ("a paragraph inside an unclosed **", 8, { "**" + String(repeating: "word ", count: $0 / 5) }),
        ("a paragraph inside an unclosed [", 16, { "[" + String(repeating: "word ", count: $0 / 5) }),
        ("a long open code fence", 15, { "```\n" + String(repeating: "let x = 1\n", count: $0 / 10) }),
        ("a long indented code block", 15, { String(repeating: "    let x = 1\n", count: $0 / 14) }),
        ("a long table", 15, { "| a | b |\n|---|---|\n" + String(repeating: "| c | d |\n", count: $0 / 10) }),
        ("deeply nested quotes", 60, { String(repeating: "> ", count: $0 / 2) + "a" }),
        ("deeply nested lists", 60, { String(repeating: "- ", count: $0 / 2) + "a" }),
        ("a long line of spaces", 8, { "a\n" + String(repeating: " ", count: $0) }),
        ("a long thematic break", 8, { String(repeating: "-", count: $0) }),
    ]

    /// Streams `text` in 4-byte chunks (cut between scalars), reading the tail after each.
    static func work(_ text: String) -> Int {
        var document = MarkdownDocument()
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var blocks = 0
        while start < scalars.count {
            let end = min(start + 4, scalars.count)
            var chunk = ""
            chunk.unicodeScalars.append(contentsOf: scalars[start..<end])
            document.append(chunk)
            blocks += document.tail.count
            start = end
        }
        #expect(blocks > 0)
        return document.work
    }

    @Test(arguments: cases.map(\.name))
    func readingTheTailPerChunkIsLinear(_ name: String) {
        let testCase = Self.cases.first { $0.name == name }!
        let size = 10_000
        let single = Self.work(testCase.text(size))
        let double = Self.work(testCase.text(2 * size))
        #expect(single <= testCase.perByte * size, "work per byte \(Double(single) / Double(size))")
        #expect(Double(double) / Double(single) < 2.3, "work \(single), then \(double) for twice the input")
    }

    /// The same inputs without tail reads do far less work per byte than with them only when a
    /// read re-parses: here a read of a growing paragraph must stay within a few steps per byte.
    @Test func aReadCostsTheNewBytesNotTheParagraph() {
        let text = String(repeating: "word ", count: 8_000)
        var withReads = MarkdownDocument()
        var appendOnly = MarkdownDocument()
        for start in stride(from: 0, to: text.utf8.count, by: 4) {
            let chunk = String(text.utf8.dropFirst(start).prefix(4))!
            withReads.append(chunk)
            _ = withReads.tail
            appendOnly.append(chunk)
        }
        #expect(withReads.work - appendOnly.work <= 2 * text.utf8.count)
    }
}
