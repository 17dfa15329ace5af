import Testing

@testable import CadenceEngine

@Suite struct MarkdownBlocksTests {
    let text = """
        # Resuming streams

        Streams drop. They resume
        from the last id.

        ## Last-Event-ID

        - The client sends [the header](https://example.com/spec).
        - The server replays.

        ```swift
        let x = 1
        ```

        | Field | Meaning |
        |---|---|
        | id | sequence |

        > A quoted note.

        ## Last-Event-ID
        Again.
        """

    @Test func readsSectionsBlocksAndAnchors() {
        let sections = MarkdownBlocks.sections(in: text)
        #expect(sections.map(\.heading) == ["Resuming streams", "Last-Event-ID", "Last-Event-ID"])
        #expect(sections.map(\.anchor) == ["resuming-streams", "last-event-id", "last-event-id-1"])
        #expect(
            sections[0].blocks == [TextBlock(kind: .paragraph, text: "Streams drop. They resume from the last id.")])
        #expect(sections[1].blocks.map(\.kind) == [.listItem, .listItem, .code, .table, .paragraph])
        #expect(sections[1].blocks[0].text == "The client sends the header.")
        #expect(sections[1].blocks[2].text == "let x = 1")
        #expect(sections[1].blocks[3].text == "Field; Meaning\nid; sequence")
        #expect(sections[1].blocks[4].text == "A quoted note.")
        #expect(sections[2].blocks.map(\.text) == ["Again."])
    }

    @Test func plainTextIsParagraphs() {
        let sections = MarkdownBlocks.sections(in: "first line\nsecond line\n\nthird\r\n")
        #expect(sections.count == 1)
        #expect(sections[0].heading == nil)
        #expect(sections[0].blocks.map(\.text) == ["first line second line", "third"])
    }

    @Test func headingsInsideCodeAreNotHeadings() {
        #expect(MarkdownBlocks.firstHeading(in: "```\n# not a heading\n```\n## Real") == "Real")
        #expect(MarkdownBlocks.firstHeading(in: "#hashtag\nplain") == nil)
    }

    @Test func documentTitles() {
        #expect(Document(collection: "c", path: "a.md", text: "intro\n\n## Second level\n").title == "Second level")
        #expect(
            Document(collection: "c", path: "dir/retry-with_backoff.md", text: "no heading").title
                == "Retry with backoff")
        #expect(
            Document(collection: "my notes", path: "a b.md", text: "").url == "cadence://corpus/my%20notes/a%20b.md")
    }

    @Test func passagesStayWithinSectionsAndNearTheTargetSize() {
        let paragraph = Array(repeating: "word", count: 50).joined(separator: " ") + "."
        let body = Array(repeating: paragraph, count: 6).joined(separator: "\n\n")
        let document = Document(collection: "c", path: "long.md", text: "# One\n\n\(body)\n\n# Two\n\nShort tail.")
        let passages = Passage.split(document, documentIndex: 0)
        #expect(passages.map(\.heading) == ["One", "One", "Two"])
        for passage in passages.dropLast() {
            let words = passage.text.split(whereSeparator: \.isWhitespace).count
            #expect((Passage.targetWords...Passage.targetWords * 3 / 2).contains(words))
        }
    }
}
