import Testing

@testable import CadenceMarkdown

/// Inputs that make naive parsers quadratic or deeply recursive: each must parse, and streaming it
/// must give the one-shot result.
@Suite struct PathologicalInputTests {
    static let inputs: [(name: String, text: String)] = [
        ("open brackets", String(repeating: "[", count: 5000)),
        ("unclosed inline links", String(repeating: "[a](b", count: 3000)),
        ("unclosed images", String(repeating: "![a](", count: 3000)),
        ("emphasis runs", String(repeating: "*a ", count: 5000) + String(repeating: "_b_c", count: 3000)),
        ("nested emphasis", String(repeating: "*", count: 3000) + "a" + String(repeating: "*", count: 3000)),
        ("backtick runs", (1...150).map { String(repeating: "`", count: $0) + " " }.joined()),
        ("nested quotes", String(repeating: "> ", count: 1000) + "a\n"),
        ("nested lists", (0..<200).map { String(repeating: "  ", count: $0) + "- a\n" }.joined()),
        ("unclosed tags", String(repeating: "<a ", count: 5000)),
        ("nested link text", String(repeating: "[", count: 3000) + "a" + String(repeating: "]", count: 3000)),
        ("long table", "| a | b |\n|---|---|\n" + String(repeating: "| c | d |\n", count: 3000)),
        // Deeper than the nesting limits: flattened, not a stack overflow.
        ("very deep emphasis", String(repeating: "*", count: 20000) + "a" + String(repeating: "*", count: 20000)),
        ("very deep quotes", String(repeating: "> ", count: 5000) + "a\n"),
        ("very deep lists", (0..<400).map { String(repeating: "  ", count: $0) + "- a\n" }.joined()),
    ]

    @Test(arguments: inputs.map(\.name))
    func parsesAndStreamsIdentically(_ name: String) {
        let text = Self.inputs.first { $0.name == name }!.text
        let expected = MarkdownParser().parse(text)
        #expect(!expected.blocks.isEmpty)
        var document = MarkdownDocument()
        var chunk = ""
        for character in text {
            chunk.append(character)
            if chunk.count == 64 {
                document.append(chunk)
                chunk = ""
            }
        }
        document.append(chunk)
        #expect(document.finish() == expected)
        #expect(!HTMLRenderer().render(expected).isEmpty)
        #expect(!ANSIRenderer(width: 60, colors: false).render(expected).isEmpty)
    }
}
