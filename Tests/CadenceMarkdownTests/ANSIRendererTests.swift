import Testing

@testable import CadenceMarkdown

@Suite struct ANSIRendererTests {
    static let widths = [30, 60, 100]

    @Test(arguments: Answer.all, widths)
    func linesFitTheWidth(_ answer: Answer, width: Int) {
        let renderer = ANSIRenderer(width: width, colors: true)
        let output = renderer.render(MarkdownParser().parse(answer.text))
        let tooWide = output.split(separator: "\n").map { renderer.strip(String($0)) }
            .filter { TerminalText.width(of: $0) > width }
        #expect(tooWide.isEmpty, "\(tooWide.prefix(3))")
    }

    @Test func noColorMeansNoEscapeCodes() {
        let tree = MarkdownParser().parse("# Title\n\n**bold** `code` [1]\n\n```\nx\n```\n")
        #expect(!ANSIRenderer(colors: false).render(tree).contains("\u{1B}"))
        #expect(ANSIRenderer(colors: true).render(tree).contains("\u{1B}[1;35m"))
    }

    @Test func wideCharactersCountTwoColumns() {
        let text = String(repeating: "漢字", count: 20)
        let output = ANSIRenderer(width: 20, colors: false).render(MarkdownParser().parse(text))
        let lines = output.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { TerminalText.width(of: String($0)) == 20 })
    }

    @Test func citationsAreSuperscriptMarkers() {
        let output = ANSIRenderer(colors: false).render(MarkdownParser().parse("Water boils [1][12]."))
        #expect(output == "Water boils¹˒¹².\n")
    }

    @Test func codeKeepsIndentationInAGutter() {
        let output = ANSIRenderer(colors: false).render(MarkdownParser().parse("```go\nif x {\n\treturn\n}\n```"))
        #expect(output == "╭─ go\n│ if x {\n│     return\n│ }\n╰─\n")
    }

    @Test func tableShrinksToTheWidth() {
        let text = "| name | description |\n|---|---|\n| a | " + String(repeating: "word ", count: 30) + "|\n"
        let renderer = ANSIRenderer(width: 40, colors: false)
        let lines = renderer.render(MarkdownParser().parse(text)).split(separator: "\n")
        #expect(lines.count > 5)
        #expect(lines.allSatisfy { TerminalText.width(of: String($0)) <= 40 })
    }
}
