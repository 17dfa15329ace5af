import CadenceMarkdown
import Testing

/// The worked example of CadenceMarkdown's documentation catalog ("Streaming a document"), run as
/// written, so the catalog stays true.
@Suite struct DocumentationExampleTests {
    @Test func streamingADocument() {
        var document = MarkdownDocument()
        document.append("## Resuming\n\nA client sends **Last-")
        #expect(document.committed == [.heading(level: 2, [.text("Resuming")])])
        #expect(document.tail == [.paragraph([.text("A client sends "), .strong([.text("Last-")])])])

        document.append("Event-ID** [1] and the server replays.\n\n```swift\nlet cursor")
        #expect(document.committed.count == 2)
        guard case .paragraph(let inlines)? = document.committed.last else {
            Issue.record("not a paragraph: \(document.committed)")
            return
        }
        #expect(inlines.contains(.citation([1])))
        #expect(document.tail == [.codeBlock(CodeBlock(info: "swift", code: "let cursor\n", isOpen: true))])

        document.append(" = 41\n```\n")
        let tree = document.finish()
        let whole =
            "## Resuming\n\nA client sends **Last-Event-ID** [1] and the server replays.\n\n```swift\nlet cursor = 41\n```\n"
        #expect(tree == MarkdownParser().parse(whole))
        #expect(
            HTMLRenderer().render(tree) == """
                <h2>Resuming</h2>
                <p>A client sends <strong>Last-Event-ID</strong> <sup class="citation"><a href="#source-1">[1]</a></sup> and the server replays.</p>
                <pre><code class="language-swift">let cursor = 41
                </code></pre>

                """)
    }
}
