import Testing

@testable import CadenceMarkdown

/// What a reader sees while an answer streams: commit rules and virtual closure of the open tail.
@Suite struct StreamingTailTests {
    func document(_ chunks: String...) -> MarkdownDocument {
        var document = MarkdownDocument()
        for chunk in chunks { document.append(chunk) }
        return document
    }

    /// The tail after feeding `chunks`, checked against a rebuild from scratch.
    func tail(_ chunks: String...) -> [Block] {
        var document = MarkdownDocument()
        for chunk in chunks { document.append(chunk) }
        let tail = document.tail
        #expect(tail == document.freshTail())
        return tail
    }

    @Test func openFenceIsCodeInProgress() {
        var doc = document("```swift\nlet x = 1\n")
        #expect(doc.committed.isEmpty)
        #expect(doc.tail == [.codeBlock(CodeBlock(info: "swift", code: "let x = 1\n", isOpen: true))])
    }

    @Test func fenceCommitsAtItsClosingFence() {
        var doc = document("```\ncode\n", "~~~\n")
        #expect(doc.committed.isEmpty, "a different fence character does not close it")
        doc.append("```\n")
        #expect(doc.committed == [.codeBlock(CodeBlock(info: nil, code: "code\n~~~\n"))])
    }

    @Test func unfinishedStrongIsStrongToTheEnd() {
        #expect(tail("Some **bold te") == [.paragraph([.text("Some "), .strong([.text("bold te")])])])
        #expect(tail("*a **b") == [.paragraph([.emphasis([.text("a "), .strong([.text("b")])])])])
        #expect(tail("~~gone") == [.paragraph([.strikethrough([.text("gone")])])])
        #expect(tail("2*3 is") == [.paragraph([.text("2*3 is")])], "intraword runs stay literal")
    }

    @Test func unfinishedCodeSpanIsCode() {
        #expect(tail("run `swift te") == [.paragraph([.text("run "), .code("swift te")])])
    }

    @Test func linkWithoutTargetYet() {
        #expect(
            tail("see [the docs](htt") == [
                .paragraph([.text("see "), .link(destination: nil, title: nil, [.text("the docs")])])
            ])
    }

    @Test func halfTypedCitationIsHeldBack() {
        #expect(tail("as shown [1") == [.paragraph([.text("as shown ")])])
        #expect(tail("as shown [1][2") == [.paragraph([.text("as shown ")])])
        #expect(tail("as shown [1][2]") == [.paragraph([.text("as shown "), .citation([1, 2])])])
    }

    @Test func halfTypedTableRowWaitsForItsNewline() {
        let header: [[Inline]] = [[.text("a")], [.text("b")]]
        var doc = document("| a | b |\n|---|---|\n| 1 | 2")
        #expect(doc.tail == [.table(Table(alignments: [.none, .none], header: header, rows: []))])
        var more = doc
        more.append("\n")
        #expect(
            more.tail == [
                .table(Table(alignments: [.none, .none], header: header, rows: [[[.text("1")], [.text("2")]]]))
            ])
    }

    @Test func pipeLineIsAPendingHeader() {
        let tail = tail("Intro\n| a | b |")
        #expect(
            tail == [
                .paragraph([.text("Intro")]),
                .table(
                    Table(alignments: [.none, .none], header: [[.text("a")], [.text("b")]], rows: [], isPending: true)),
            ])
    }

    @Test func lastParagraphIsNeverCommitted() {
        var doc = document("A paragraph\n")
        #expect(doc.committed.isEmpty)
        doc.append("===\n")
        #expect(doc.committed.isEmpty)
        #expect(doc.tail == [.heading(level: 1, [.text("A paragraph")])], "same identity, new kind")
        doc.append("\nNext")
        #expect(doc.committed == [.heading(level: 1, [.text("A paragraph")])])
    }

    @Test func listAbsorbsLaterItemsAfterABlankLine() {
        var doc = document("1. one\n", "\n")
        #expect(doc.committed.isEmpty)
        doc.append("2. two\n\nAfter\n")
        #expect(doc.committed.count == 1)
        guard case .list(let list) = doc.committed[0] else {
            Issue.record("expected a list")
            return
        }
        #expect(list.items.count == 2)
        #expect(!list.isTight)
    }

    @Test func laterDefinitionHoldsBackABlockUntilFinish() {
        var doc = document("See [docs].\n\nMore text.\n\n")
        #expect(doc.committed.isEmpty, "[docs] could still be defined later")
        doc.append("[docs]: https://example.com\n")
        let tree = doc.finish()
        #expect(
            tree.blocks.first
                == .paragraph([
                    .text("See "), .link(destination: "https://example.com", title: nil, [.text("docs")]), .text("."),
                ]))
    }

    @Test func finishEqualsOneShotParse() {
        let text = "# T\n\n- a\n- b **c\n\n```\nx"
        var doc = MarkdownDocument()
        for character in text { doc.append(String(character)) }
        #expect(doc.finish() == MarkdownParser().parse(text))
    }
}

/// Citations `[n]` and `[n][m]`, in the default (non-strict) mode only.
@Suite struct CitationTests {
    @Test func numericLabelNeverResolvesAsAReference() {
        let text = "Fact [1].\n\n[1]: https://example.com\n"
        #expect(MarkdownParser().parse(text).blocks == [.paragraph([.text("Fact "), .citation([1]), .text(".")])])
        #expect(
            MarkdownParser(options: .gfm).parse(text).blocks == [
                .paragraph([
                    .text("Fact "), .link(destination: "https://example.com", title: nil, [.text("1")]), .text("."),
                ])
            ])
    }

    @Test func adjacentCitationsMerge() {
        #expect(MarkdownParser().parse("x [1][23]").blocks == [.paragraph([.text("x "), .citation([1, 23])])])
    }

    @Test func inlineLinkWithNumericTextStaysALink() {
        #expect(
            MarkdownParser().parse("[1](https://a.b)").blocks == [
                .paragraph([.link(destination: "https://a.b", title: nil, [.text("1")])])
            ])
    }

    @Test func htmlRendersCitationsAsSourceLinks() {
        let html = HTMLRenderer().render(MarkdownParser().parse("x [2]"))
        #expect(html == "<p>x <sup class=\"citation\"><a href=\"#source-2\">[2]</a></sup></p>\n")
    }
}
