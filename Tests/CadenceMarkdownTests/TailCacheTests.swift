import Testing

@testable import CadenceMarkdown

/// The tail a read builds from what the last read kept (`TailCache`) equals a rebuild from scratch,
/// at the edges of what it keeps: a later line that changes the meaning of an earlier one, a pending
/// line whose reading changes as it grows, a definition that resolves a link, and a reader that
/// holds on to the last tail while the next is built in place.
@Suite struct TailCacheTests {
    static let chunkSizes = [1, 2, 3, 4, 7]

    /// Streams `text` in chunks of `size` scalars, reading the tail after every chunk; returns the
    /// first differences from a rebuild, and whether the end equals a one-shot parse.
    static func problems(_ text: String, options: MarkdownOptions = .default, chunkSize size: Int) -> [String] {
        var document = MarkdownDocument(options: options)
        var problems: [String] = []
        let scalars = Array(text.unicodeScalars)
        var start = 0
        while start < scalars.count {
            let end = min(start + size, scalars.count)
            var chunk = ""
            chunk.unicodeScalars.append(contentsOf: scalars[start..<end])
            document.append(chunk)
            let tail = document.tail
            let fresh = document.freshTail()
            if tail != fresh {
                problems.append("after \(end) scalars: \(tail) ≠ \(fresh)")
            }
            start = end
        }
        if document.finish() != MarkdownParser(options: options).parse(text) { problems.append("final tree differs") }
        return Array(problems.prefix(3))
    }

    static func expectSame(_ text: String, options: MarkdownOptions = .default) {
        for size in chunkSizes {
            let problems = problems(text, options: options, chunkSize: size)
            #expect(problems.isEmpty, "chunks of \(size): \(problems)")
        }
    }

    /// The tail after feeding `chunks`, after checking it against a rebuild.
    static func tail(_ chunks: String...) -> [Block] {
        var document = MarkdownDocument()
        var tail: [Block] = []
        for chunk in chunks {
            document.append(chunk)
            tail = document.tail
            #expect(tail == document.freshTail())
        }
        return tail
    }

    /// Found by the fuzzer: a paragraph line that is only a vertical tab or form feed so far (which
    /// starts a paragraph, unlike a space) may still go on with a table's `|`.
    @Test func aLineOfVerticalTabsMayStillStartATableRow() {
        for whitespace in ["\u{0B}", "\u{0C}", "p\n\u{0B}", "- \u{0B}"] {
            _ = Self.tail(whitespace, "|r")
            Self.expectSame(whitespace + "|r\n|---|\n")
        }
    }

    /// Found by the fuzzer: bytes appended to the text after an autolink can undo the link (an
    /// email address may not end with `-`), so they are not simply added to that text.
    @Test func appendedBytesCanUndoAnAutolink() {
        #expect(Self.tail("d@.a.", "b-") == [.paragraph([.text("d@.a.b-")])])
        Self.expectSame("write to d@a.b-c or a@b.c_ or www.a.b- today\n")
    }

    @Test func setextUnderlineTurnsTheParagraphIntoAHeading() {
        Self.expectSame("A long enough paragraph line\n===\n\nMore words after it\n")
        Self.expectSame("A paragraph\n---\n- a list item\n--- still text?\n")
        #expect(Self.tail("Some words her", "e\n", "=") == [.heading(level: 1, [.text("Some words here")])])
        #expect(
            Self.tail("Some words here\n", "= x") == [.paragraph([.text("Some words here"), .softBreak, .text("= x")])])
    }

    @Test func delimiterRowTurnsTheLastLineIntoATableHeader() {
        Self.expectSame("Intro words here\n| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nAfter\n", options: .gfm)
        Self.expectSame("| a | b |\n|---|--|\n| x |\n", options: .gfm)
        let header: [[Inline]] = [[.text("a")], [.text("b")]]
        #expect(
            Self.tail("| a | b |\n|--", "-|-") == [
                .table(Table(alignments: [.none, .none], header: header, rows: []))
            ])
    }

    /// A line of pipes being typed shows as a pending table header, updated in place as it grows:
    /// each read builds its cells again from the longer line, inside lists and quotes too.
    @Test func pendingTableHeaderGrowsInPlace() {
        for options in [MarkdownOptions.default, .gfm] {
            Self.expectSame("| Chunk size | Appends | *Total* time |\n|---:|---:|:---|\n| 4 | 9 | 13 ms |\n\n", options: options)
            Self.expectSame("Intro words\n| a | `b | c` | d **bold\n| e\n", options: options)
            Self.expectSame("- item words\n  | x | y [1] | [link](u) |\n> | quoted | header\n", options: options)
            Self.expectSame("|\n|a|b\n  |  \\| c | &amp; |\n", options: options)
        }
        let header: [[Inline]] = [[.text("a")], [.emphasis([.text("b c")])]]
        #expect(
            Self.tail("| a", " | *b", " c") == [
                .table(Table(alignments: [.none, .none], header: header, rows: [], isPending: true))
            ])
        #expect(
            Self.tail("| a | *b", "* c") == [
                .table(
                    Table(
                        alignments: [.none, .none], header: [[.text("a")], [.emphasis([.text("b")]), .text(" c")]],
                        rows: [], isPending: true))
            ])
    }

    /// Words after a closed construct (a citation, a link, a code span, emphasis, an entity) are
    /// appended to the text after it without a parse, unless they may make an autolink with it,
    /// or the construct's end with them (`__a__b` is not strong).
    @Test func wordsAfterAConstructExtendTheText() {
        Self.expectSame("Cite [1]. Then more words here and [2][3] there, then [4](x) too.\n")
        Self.expectSame("A `code` span, then words www.example.com and more `x`y.z w\n")
        Self.expectSame("A [link](https://a.b) then www.c.d. and [x](y)x@y.zz- done\n")
        Self.expectSame("**bold** then a.b@c.d- and **more**www.e.f done __a__b c\n")
        Self.expectSame("&amp; then www.a.b text &copy;x@y.co- and more\n")
        Self.expectSame("Cite [1]www.a.com.x and [2]x@y.co. ok [3]www.b.c-d e\n")
        // Right after the construct: `(` may make a link of brackets; other bytes start a new text.
        Self.expectSame("Cite [1]x and [2](y) and `c`d and <b>e</b>f and [g](h)(i) and ![i](j)k.\n")
        Self.expectSame("[foo]: /u\n\nSee [foo](bar) and [foo]x and [foo] (y) and [bar](z)w\n")
        Self.expectSame("Cite [1] and more [2]: then *a [3]* b and <http://a.b>c d\n")
        #expect(
            Self.tail("See [1]", ". Then www", ".a.b", "c-") == [
                .paragraph([.text("See "), .citation([1]), .text(". Then "), .link(destination: "http://www.a.bc-", title: nil, [.text("www.a.bc-")])])
            ])
    }

    @Test func lazyContinuationJoinsTheQuote() {
        Self.expectSame("> a quoted line of words\nlazy words that continue it\n> back in the quote\n\nout\n")
        Self.expectSame("- item words here\nlazy words too\n  indented words\n")
    }

    @Test func closingFenceClosesTheCodeBlock() {
        Self.expectSame("```swift\nlet x = 1\n  let y = 2\n``\n```\nafter the fence\n")
        Self.expectSame("~~~\ncode\n~~~~ not closing\n~~~\n")
        #expect(Self.tail("```\nlet x = 1\n``") == [.codeBlock(CodeBlock(info: nil, code: "let x = 1\n``\n", isOpen: true))])
        #expect(Self.tail("```\nlet x = 1\n``", "`") == [.codeBlock(CodeBlock(info: nil, code: "let x = 1\n"))])
    }

    @Test func definitionLaterResolvesALink() {
        Self.expectSame("See [docs] and [more] here.\n\nText between.\n\n[docs]: https://example.com \"Title\"\n")
        Self.expectSame("[a]: /url\nText after the definition [a].\n")
        Self.expectSame("[not a definition] but a paragraph with words\n")
        Self.expectSame("[1]: /x\n\nCited [1] and linked [1][].\n", options: .gfm)
    }

    /// Found by the fuzzer: a definition resolves the inner link of `[[x][a]][y][a]`, so the outer
    /// brackets no longer look up `y`. A read builds the held paragraph again and finds it waits for
    /// no label; the next chunk commits it though no line came, and a read of the same line used to
    /// show the last tail, with that paragraph still in it.
    @Test func aHeldBlockCommitsBetweenTwoReadsOfOneLine() {
        let uses = "[[x][a]][y][a]\n\n[a]: /u\n"
        #expect(Self.tail(uses, "\nT", "ex") == [.paragraph([.text("Tex")])])
        Self.expectSame(uses + "\nText\n")
    }

    @Test func pendingLineChangesItsReading() {
        // A thematic break until the text comes, a list item, a heading with a closing sequence.
        Self.expectSame("- - -\n- - - a\n* * * b\n")
        Self.expectSame("## A heading ##\n## Not closed ##x\n#### \n")
        Self.expectSame("1. one\n2) two\n10. ten\n    indented code\n")
        Self.expectSame("<div>\nhtml *block*\n</div>\n\n<b>inline</b> html\n")
    }

    @Test func inlineConstructsGrowAndClose() {
        Self.expectSame("Plain words then **bold words** and *emphasis* and `code span` done.\n")
        Self.expectSame("A [link text](https://example.com/path \"t\") and ![image](src.png) after.\n")
        Self.expectSame("Cite [1][23] and see www.example.com or https://a.b/c, mail x@y.example.\n")
        Self.expectSame("Entities &amp; &copy and escapes \\* and <span class=\"a\">tags</span> end\n")
        Self.expectSame("~~gone~~ and __strong__ and _em_ and 2*3*4 intraword\n")
        Self.expectSame("東京とパリで **同じ答え** を表示しても、`幅` の広い文字\n")
    }

    @Test func taskListItemsStayTasks() {
        Self.expectSame("- [ ] todo item words\n- [x] done item\n- [ ]no space\n")
    }

    /// A reader that keeps the last tail sees it unchanged; the next tail is still right (the
    /// update copies instead of growing the held value in place).
    @Test func heldTailIsNotChangedByTheNextRead() {
        var document = MarkdownDocument()
        var held: [[Block]] = []
        let text = "A paragraph of plain words that grows **with bold** and `code`"
        for character in text {
            document.append(String(character))
            held.append(document.tail)
        }
        var replay = MarkdownDocument()
        for (index, character) in text.enumerated() {
            replay.append(String(character))
            #expect(held[index] == replay.freshTail(), "tail \(index) changed after it was read")
        }
    }
}
