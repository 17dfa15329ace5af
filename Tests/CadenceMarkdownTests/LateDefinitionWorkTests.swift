import Testing

@testable import CadenceMarkdown

/// A link reference definition may come after the links that use it (CommonMark), so a block that
/// looked up a label in vain is held back from `committed` until the label is defined or the text
/// ends, and is built again when a definition resolves it. The work is counted
/// (`MarkdownDocument.work`), not timed: each held-back block is built again once, however many
/// definitions arrive and however the chunks fall between them.
@Suite struct LateDefinitionWorkTests {
    /// The parsing work on `chunks`, appended one by one and then finished.
    static func work(_ chunks: [String]) -> Int {
        var document = MarkdownDocument()
        for chunk in chunks { document.append(chunk) }
        _ = document.finish()
        return document.work
    }

    /// One paragraph uses `count` labels, then their definitions arrive one per chunk, each followed
    /// by a paragraph that closes in the same chunk. Each definition used to build the first
    /// paragraph again (it missed every label), which is `count` times a paragraph of `count`
    /// links: quadratic.
    static func definitionsOneByOne(_ count: Int) -> [String] {
        [(0..<count).map { "[l\($0)]" }.joined(separator: " ") + "\n\n"]
            + (0..<count).map { "[l\($0)]: /u\($0)\n\nText \($0).\n\n" }
    }

    @Test func definitionsArrivingOneByOneBuildTheirUseOnce() {
        let single = Self.work(Self.definitionsOneByOne(400))
        let double = Self.work(Self.definitionsOneByOne(800))
        #expect(Double(double) / Double(single) <= 2.5, "work \(single), then \(double) for twice the labels")
    }

    /// Paragraphs that each use two labels defined later (the shape of the inputs the
    /// `markdown-work` fuzz target found): with the two definitions in one chunk, the paragraphs were
    /// built again once, and with a chunk boundary between them twice, so the same text cost half as
    /// much again depending on where the chunks fell.
    @Test func workDoesNotDependOnTheChunksBetweenDefinitions() {
        let uses = String(repeating: "Uses [a] and [b].\n\n", count: 300)
        let whole = Self.work([uses, "[a]: /a\n\nBetween.\n\n[b]: /b\n\nEnd.\n"])
        let split = Self.work([uses, "[a]: /a\n\nBetween.\n\n", "[b]: /b\n\nEnd.\n"])
        #expect(Double(split) <= 1.05 * Double(whole), "work \(whole) in one chunk, \(split) in two")
    }

    /// The same texts streamed: the tail read after every chunk equals a rebuild, committed blocks
    /// never change, and the end equals a one-shot parse.
    @Test(arguments: [1, 7, 64])
    func lateDefinitionsStreamAsTheyParse(_ size: Int) {
        let texts = [
            Self.definitionsOneByOne(12).joined(),
            String(repeating: "Uses [a] and [b].\n\n", count: 5) + "[a]: /a\n\nMiddle [c].\n\n[b]: /b\n\n[c]: /c",
            "[x] held\n\nafter\n\n- item [y]\n\n> quote [x]\n\n[y]: /y\n\n[x]: /x\n",
            // A label defined twice: the first definition wins.
            "Uses [a].\n\n[a]: /first\n\n[a]: /second\n\nUses [a] again.\n",
        ]
        for text in texts {
            var document = MarkdownDocument()
            var committed: [Block] = []
            var chunk = ""
            for scalar in text.unicodeScalars {
                chunk.unicodeScalars.append(scalar)
                guard chunk.utf8.count >= size else { continue }
                document.append(chunk)
                chunk = ""
                #expect(document.committed.starts(with: committed), "committed blocks changed")
                committed = document.committed
                #expect(document.tail == document.freshTail(), "chunks of \(size)")
            }
            document.append(chunk)
            #expect(document.finish() == MarkdownParser().parse(text), "chunks of \(size)")
        }
    }
}
