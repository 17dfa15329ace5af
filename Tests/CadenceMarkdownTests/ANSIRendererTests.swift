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

    @Test func struckTextKeepsItsTildesWithoutColor() {
        // Without escape codes, "~~open~~ closed" printed as "open closed": the opposite of its meaning.
        let tree = MarkdownParser().parse("The door is ~~open~~ closed.")
        #expect(ANSIRenderer(colors: false).render(tree) == "The door is ~~open~~ closed.\n")
        let colored = ANSIRenderer(colors: true).render(tree)
        #expect(!colored.contains("~"))
        #expect(colored.contains("\u{1B}[9mopen\u{1B}[0m"))
    }

    /// Every escape sequence in `output` is one of the renderer's own SGR codes (`ESC [ digits ; m`).
    static func onlySGR(_ output: String) -> Bool {
        var scalars = output.unicodeScalars[...]
        while let escape = scalars.firstIndex(of: "\u{1B}") {
            scalars = scalars[scalars.index(after: escape)...]
            guard scalars.first == "[" else { return false }
            scalars = scalars.dropFirst()
            let parameters = scalars.prefix { ("0"..."9").contains($0) || $0 == ";" }
            scalars = scalars.dropFirst(parameters.count)
            guard scalars.first == "m" else { return false }
        }
        return true
    }

    @Test func controlCharactersFromTheTextShowAsSymbols() {
        // An answer (a model, a web page it read) may carry escape codes: clear the screen, set the
        // window title, write the clipboard (OSC 52), or a CR that overwrites the line.
        let hostile = "Hi \u{1B}[2J\u{1B}]0;PWNED\u{07} x\u{0D}y \u{9B}31m z\u{7F}"
        let markdown = "\(hostile)\n\n`\(hostile)`\n\n```\n\(hostile)\n```\n\n| a |\n|---|\n| \(hostile) |\n"
        let tree = MarkdownParser().parse(markdown)
        let plain = ANSIRenderer(width: 200, colors: false).render(tree)
        #expect(!plain.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F..<0xA0).contains($0.value) })
        // (The CR is a line ending to markdown, so it never reaches the renderer.)
        #expect(plain.contains("␛[2J␛]0;PWNED␇ x") && plain.contains("�31m z␡"), "\(plain)")
        let styled = ANSIRenderer(width: 200, colors: true).render(tree)
        #expect(Self.onlySGR(styled), "an escape sequence that is not the renderer's own: \(styled.debugDescription)")
    }

    @Test func tabsInProseBreakLikeSpaces() {
        // A tab printed as is jumps to the terminal's next tab stop, which the wrap did not count:
        // the line would overflow the width. In prose it is a space between words, as HTML shows it.
        let tree = MarkdownParser().parse("one\ttwo\tthree\tfour\tfive\tsix\tseven\teight\n")
        let lines = ANSIRenderer(width: 20, colors: false).render(tree).split(separator: "\n").map(String.init)
        #expect(lines == ["one two three four", "five six seven eight"], "\(lines)")
    }

    @Test func theSanitizerLeavesOrdinaryTextAlone() {
        let text = "Grüße, 日本, e\u{301}, tabs\tand\nlines, «»"
        #expect(TerminalSanitizer.printable(text) == text)
        #expect(!TerminalSanitizer.needsReplacing(text))
        #expect(TerminalSanitizer.printable("a\u{1B}b\u{85}c\u{0}d\re") == "a␛b�c␀d␍e")
    }

    /// "Trojan Source": an override or isolate makes the terminal show the text after it in another
    /// order than it reads, so `admin = false ‮ ⁦// user⁩ ⁦` could show as something else entirely.
    @Test func bidirectionalControlsShowAsSymbols() {
        let controls: [Unicode.Scalar] = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
            "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]
        for control in controls {
            let text = "is \(control)admin\u{202C} ok"
            #expect(TerminalSanitizer.needsReplacing(text), "U+\(String(control.value, radix: 16))")
            #expect(TerminalSanitizer.printable(text) == "is �admin� ok", "U+\(String(control.value, radix: 16))")
        }
        let plain = ANSIRenderer(width: 80, colors: false).render(MarkdownParser().parse("a \u{202E}txt.exe\n"))
        #expect(plain == "a �txt.exe\n", "\(plain.debugDescription)")
        // The marks stay (right-to-left text needs them), and so do their neighbours in UTF-8.
        let marks = "שלום\u{200F} (1) \u{200E}x\u{061C}y \u{2065}\u{2070}\u{2029}\u{2010}"
        #expect(!TerminalSanitizer.needsReplacing(marks) && TerminalSanitizer.printable(marks) == marks)
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
