import CadenceTesting
import Testing

@testable import CadenceMarkdown

/// Feeding an answer in chunks never changes the result, and committed blocks are final.
@Suite struct IncrementalTests {
    static let chunkSizes = [1, 2, 3, 7, 64, Int.max]

    @Test func answersAreLoaded() {
        #expect(Answer.all.count >= 3)
    }

    @Test(arguments: Answer.all, chunkSizes)
    func chunkingNeverChangesTheTree(_ answer: Answer, chunkSize: Int) {
        let expected = MarkdownParser().parse(answer.text)
        var document = MarkdownDocument()
        var committedBefore: [Block] = []
        var violations: [String] = []
        var offset = 0
        for chunk in answer.text.chunks(ofCharacters: chunkSize) {
            document.append(chunk)
            offset += chunk.count
            let committed = document.committed
            // Committed identities never change: what was committed stays, at the same index.
            if Array(committed.prefix(committedBefore.count)) != committedBefore {
                violations.append("a committed block changed at character \(offset)")
            }
            // Every committed block equals the corresponding block of the final tree.
            for (index, block) in committed.enumerated() where index >= committedBefore.count {
                if index >= expected.blocks.count || block != expected.blocks[index] {
                    violations.append("block \(index) committed at character \(offset) differs from the final tree")
                }
            }
            // The tail, built from what the last read kept, equals a rebuild from scratch.
            if document.tail != document.freshTail() {
                violations.append("tail differs from a fresh rebuild at \(offset)")
            }
            // The view keeps everything committed and has a tail (the answer is still streaming).
            if document.tree.blocks.count < committed.count { violations.append("view lost blocks at \(offset)") }
            committedBefore = committed
        }
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        let final = document.finish()
        let firstDifference = zip(final.blocks, expected.blocks).enumerated().first { $0.element.0 != $0.element.1 }?
            .offset
        #expect(
            final == expected, "first differing block: \(String(describing: firstDifference)) of \(final.blocks.count)")
        #expect(committedBefore.count >= expected.blocks.count / 2, "most blocks commit before the end")
    }

    @Test(
        .enabled(if: CMarkGFM.isAvailable, "cmark-gfm is not installed: apt-get install cmark-gfm"),
        arguments: Answer.all)
    func strictHTMLMatchesCMarkGFM(_ answer: Answer) throws {
        let reference = try CMarkGFM.render(answer.text)
        let html = HTMLRenderer(tagFilter: true).render(MarkdownParser(options: .gfm).parse(answer.text))
        #expect(html == reference)
    }
}
