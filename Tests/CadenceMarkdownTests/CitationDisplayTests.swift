import Testing

@testable import CadenceMarkdown

/// Citations are drawn only when they point at a source, and unsupported ones are marked.
@Suite struct CitationDisplayTests {
    static func ansi(_ markdown: String, _ display: CitationDisplay?, colors: Bool = false) -> String {
        ANSIRenderer(width: 80, colors: colors, citations: display).render(MarkdownParser().parse(markdown))
    }

    static func html(_ markdown: String, _ display: CitationDisplay?) -> String {
        HTMLRenderer(citations: display).render(MarkdownParser().parse(markdown))
    }

    static let three = CitationDisplay(sources: [1, 2, 3])

    @Test(arguments: [
        ("A fact [1].", "A fact¹.\n"),
        ("A fact [9].", "A fact [9].\n"),
        ("A fact [1][9].", "A fact¹[9].\n"),
        ("A fact [9][1].", "A fact [9]¹.\n"),
        ("A fact [1][3].", "A fact¹˒³.\n"),
    ])
    func onlySourceNumbersAreDrawnAsCitations(markdown: String, expected: String) {
        #expect(Self.ansi(markdown, Self.three) == expected)
    }

    @Test func withoutSourcesEveryCitationIsText() {
        #expect(Self.ansi("See [1] and [2].", CitationDisplay(sources: [])) == "See [1] and [2].\n")
        #expect(Self.html("See [1].", CitationDisplay(sources: [])) == "<p>See [1].</p>\n")
    }

    @Test func withoutADisplayEveryCitationIsDrawnAsBefore() {
        #expect(Self.ansi("Water boils [1][12].", nil) == "Water boils¹˒¹².\n")
    }

    @Test func anUnsupportedCitationIsMarkedWithAQuestionMarkEvenWithoutColours() {
        let display = CitationDisplay(sources: [1, 2, 3], unsupported: [2: 3])
        #expect(Self.ansi("One [1]. Two [3]. Three [3].", display) == "One¹. Two³?. Three³.\n")
        let colored = Self.ansi("Two [1][3].", display, colors: true)
        #expect(colored.contains("?"))
        #expect(colored.contains("\u{1B}[2m?"), "the mark is dimmed")
    }

    @Test func aMarkIsDrawnOnlyWhereTheOrdinalReallyCitesThatSource() {
        // The check says ordinal 1 cites source 2, but the text's first citation is [1]: no mark.
        let display = CitationDisplay(sources: [1, 2], unsupported: [1: 2])
        #expect(Self.ansi("A [1]. B [2].", display) == "A¹. B².\n")
    }

    @Test func blocksRenderedOneByOneKeepCountingOrdinals() {
        let tree = MarkdownParser().parse("First [1][2].\n\n- item [3]\n- item **[1]**\n\n| a |\n|---|\n| x [2] |\n\nLast [3].")
        let display = CitationDisplay(sources: [1, 2, 3], unsupported: [6: 3])
        var ordinal = 1
        var rendered: [String] = []
        for block in tree.blocks {
            rendered.append(ANSIRenderer(width: 80, colors: false, citations: display.advanced(by: ordinal - 1)).render([block]))
            ordinal += CitationDisplay.citationCount(in: [block])
        }
        #expect(ordinal == 7)
        #expect(rendered.last == "Last³?.\n")
        #expect(!rendered.dropLast().joined().contains("?"))
        // The same as rendering all blocks at once.
        #expect(ANSIRenderer(width: 80, colors: false, citations: display).render(tree).contains("Last³?."))
    }

    @Test func htmlMarksUnsupportedCitationsWithAClassAndATitle() {
        let display = CitationDisplay(sources: [1, 2], unsupported: [2: 2])
        let html = Self.html("A [1]. B [2]. C [7].", display)
        #expect(html.contains(##"<sup class="citation"><a href="#source-1">[1]</a></sup>"##))
        #expect(html.contains(##"<sup class="citation unsupported" title="The cited source may not support this sentence"><a href="#source-2">[2]</a></sup>"##))
        #expect(html.contains("C [7]."))
    }
}
