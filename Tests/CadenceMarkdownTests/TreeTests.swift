import Testing

@testable import CadenceMarkdown

@Suite struct TreeTests {
    let tree = MarkdownParser().parse("# T\n\n> quote\n\n- a\n- b\n\n  more\n")

    @Test func blockIDsAreOrdinalPaths() {
        #expect(tree.block(at: BlockID(0)) == .heading(level: 1, [.text("T")]))
        #expect(tree.block(at: BlockID(1, 0)) == .paragraph([.text("quote")]))
        #expect(tree.block(at: BlockID(2, 1, 1)) == .paragraph([.text("more")]))
        #expect(tree.block(at: BlockID(2, 5, 0)) == nil)
        #expect(tree.block(at: BlockID(9)) == nil)
        #expect(BlockID(2, 1, 1).description == "2.1.1")
    }

    @Test func treeOutline() {
        let outline = TreeRenderer().render(MarkdownParser().parse("Hi *there* [1]\n\n```go\nx\n```"))
        #expect(
            outline == """
                [0] paragraph
                  text "Hi "
                  emph
                    text "there"
                  text " "
                  citation 1
                [1] code_block info="go"
                  "x\\n"

                """)
    }
}
