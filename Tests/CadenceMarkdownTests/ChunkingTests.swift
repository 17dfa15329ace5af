import Foundation
import Testing

@testable import CadenceMarkdown

/// Every spec example, streamed one character (and three) at a time: the final tree equals the
/// one-shot parse, and nothing committed along the way ever differs from it.
@Suite struct ChunkingTests {
    static func check(_ markdown: String, options: MarkdownOptions, chunkSize: Int) -> [String] {
        let expected = MarkdownParser(options: options).parse(markdown)
        var document = MarkdownDocument(options: options)
        var problems: [String] = []
        var chunk = ""
        var previous: [Block] = []
        for character in markdown {
            chunk.append(character)
            guard chunk.count == chunkSize else { continue }
            document.append(chunk)
            chunk = ""
            let committed = document.committed
            if Array(committed.prefix(previous.count)) != previous { problems.append("committed block changed") }
            if committed != Array(expected.blocks.prefix(committed.count)) { problems.append("committed ≠ final") }
            if document.tail != document.freshTail() { problems.append("tail differs") }
            previous = committed
        }
        document.append(chunk)
        if document.finish() != expected { problems.append("final tree differs") }
        return problems
    }

    @Test(arguments: SpecExample.commonMark)
    func commonMarkExampleStreamed(_ example: SpecExample) {
        #expect(Self.check(example.markdown, options: .commonMark, chunkSize: 1).isEmpty)
        #expect(Self.check(example.markdown, options: .default, chunkSize: 3).isEmpty)
    }

    @Test(arguments: SpecExample.gfm)
    func gfmExampleStreamed(_ example: SpecExample) {
        #expect(Self.check(example.markdown, options: .gfm, chunkSize: 1).isEmpty)
    }

    @Test func lineEndingsAreEquivalent() {
        let unix = "# Title\n\n- a\n- b\n\n```\ncode\n```\n"
        let windows = unix.replacingOccurrences(of: "\n", with: "\r\n")
        let oldMac = unix.replacingOccurrences(of: "\n", with: "\r")
        let expected = MarkdownParser().parse(unix)
        #expect(MarkdownParser().parse(windows) == expected)
        #expect(MarkdownParser().parse(oldMac) == expected)
        // "\r" and "\n" arriving in different chunks still make one line ending.
        var document = MarkdownDocument()
        for scalar in windows.unicodeScalars { document.append(String(scalar)) }
        #expect(document.finish() == expected)
    }

    /// The line splitter reads eight bytes at a time while none is below 0x0E; a chunk of one
    /// character is read byte by byte. Both must find every line ending and NUL, wherever it falls
    /// in a word, and treat a tab (also below 0x0E) as text.
    @Test(arguments: ["\n", "\r", "\r\n", "\u{0}", "\t", "\n\n", "\n- "])
    func lineEndingsAreFoundAtEveryOffsetOfAWord(_ separator: String) {
        for offset in 0..<24 {
            let text = String(repeating: "a", count: offset) + separator + "bcdefghijklmnopqrst" + separator + "é"
            var document = MarkdownDocument()
            for character in text { document.append(String(character)) }
            let whole = MarkdownParser().parse(text)
            #expect(document.finish() == whole, "separator \(separator.debugDescription) after \(offset) bytes")
            let lines = whole.blocks.first.map { block -> Int in
                guard case .paragraph(let inlines) = block else { return -1 }
                return inlines.filter { $0 == .softBreak }.count
            }
            if separator == "\n" || separator == "\r" || separator == "\r\n" {
                #expect(lines == (offset == 0 ? 1 : 2), "separator \(separator.debugDescription) after \(offset) bytes")
            }
        }
    }

    @Test func nulBecomesReplacementCharacter() {
        #expect(MarkdownParser().parse("a\u{0}b").blocks == [.paragraph([.text("a\u{FFFD}b")])])
    }

    @Test func appendAfterFinishIsIgnored() {
        var document = MarkdownDocument()
        document.append("one")
        let tree = document.finish()
        document.append(" two")
        #expect(document.finish() == tree)
        #expect(document.tail.isEmpty)
    }

    @Test func copiesAreIndependent() {
        var first = MarkdownDocument()
        first.append("- a\n")
        var second = first
        second.append("- b\n")
        first.append("\ntext\n")
        #expect(first.finish() == MarkdownParser().parse("- a\n\ntext\n"))
        #expect(second.finish() == MarkdownParser().parse("- a\n- b\n"))
    }
}
