import CadencePacing
import Testing

/// What may be visible while a stream is open, for the adaptive mode's unit rules.
@Suite("Unit rules (adaptive)")
struct UnitRulesTests {
    /// Feeds `chunks` at t = 0 (stream open), runs long enough for the rate law to reveal
    /// everything revealable (but less than the held-unit release), returns the visible text.
    private func visibleWhileOpen(_ chunks: [String], mode: DisplayPacer.Mode = .adaptive) -> String {
        var harness = PacerHarness(DisplayPacer(mode: mode))
        for chunk in chunks { harness.pacer.append(chunk, at: .zero) }
        harness.run(until: 200)
        return harness.visibleText
    }

    @Test("a word is shown only once the whitespace after it has arrived")
    func wholeWords() {
        #expect(visibleWhileOpen(["Hello wor"]) == "Hello ")
        #expect(visibleWhileOpen(["Hello wor", "ld"]) == "Hello ")
        #expect(visibleWhileOpen(["Hello wor", "ld "]) == "Hello world ")
        #expect(visibleWhileOpen(["Hello world\n\nNext"]) == "Hello world\n\n")
    }

    @Test("inside a fence only whole lines are shown")
    func wholeCodeLines() {
        let prose = "Look:\n"
        let text = prose + "```swift\nlet a = 1\nlet b = a + 2"
        // The second code line has no LF yet: it stays hidden, even though it has spaces.
        #expect(visibleWhileOpen([text]) == prose + "```swift\nlet a = 1\n")
        // After the closing fence, prose units are words again.
        let closed = text + "\n```\nDone now"
        #expect(visibleWhileOpen([closed]) == closed.replacingLastWord())
    }

    @Test("opt-in code token release: a slow code line shows up to its last token, never mid-token")
    func codeTokenRelease() {
        var configuration = DisplayPacer.Configuration()
        configuration.codeTokenRelease = .milliseconds(60)
        var harness = PacerHarness(DisplayPacer(configuration: configuration))
        let fence = "```swift\n"
        harness.pacer.append(fence + "let total = val", at: .zero)
        harness.run(until: 40)
        #expect(harness.visibleText == fence)  // held: the screen changed less than 60 ms ago
        harness.run(until: 120)
        #expect(harness.visibleText == fence + "let total = ")  // "val" may still grow
        harness.pacer.append("ue + 1\n", at: .milliseconds(120))
        harness.run(until: 200)
        #expect(harness.visibleText == fence + "let total = value + 1\n")
        // The default keeps whole code lines.
        #expect(visibleWhileOpen([fence + "let total = val"]) == fence)
    }

    @Test("a fence opened mid-stream is recognised when its backticks arrive in pieces")
    func fenceInPieces() {
        #expect(visibleWhileOpen(["Intro\n`", "``", "\nx = 1 and y", " = 2"]) == "Intro\n```\n")
    }

    @Test(
        "citation markers are atomic",
        arguments: [
            (["See [1"], "See "),
            (["See [12]", "[3"], "See "),
            (["See [12]", "[3] and"], "See [12][3] "),
            (["Fact[1][2] next"], "Fact[1][2] "),
        ])
    func citations(chunks: [String], expected: String) {
        #expect(visibleWhileOpen(chunks) == expected)
    }

    @Test("CJK text breaks between characters, never before closing punctuation")
    func cjk() {
        let visible = visibleWhileOpen(["流式输出。下一"])
        // Everything but the unsettled last character; "。" stays with "出".
        #expect(visible == "流式输出。下")
        #expect(!visibleWhileOpen(["流式输出", "。"]).hasSuffix("出"))
    }

    @Test(
        "grapheme clusters are never split, even across chunks",
        arguments: [
            ["👨\u{200D}👩", "\u{200D}👧 done "],  // family emoji arriving in pieces
            ["🇯", "🇵 flag "],  // regional indicator pair
            ["cafe", "\u{0301} au lait "],  // combining acute accent
            ["か", "\u{3099}っこう "],  // decomposed dakuten
        ])
    func graphemes(chunks: [String]) {
        for mode in DisplayPacer.Mode.allCases {
            var harness = PacerHarness(DisplayPacer(mode: mode), hz: 120)
            harness.pacer.append(chunks[0], at: .zero)
            harness.run(until: 100)
            harness.pacer.append(chunks[1], at: .milliseconds(100))
            harness.pacer.finish()
            harness.runToCompletion()
            let full = chunks.joined()
            let boundaries = full.characterBoundaries
            for frame in harness.frames where frame.changed {
                #expect(boundaries.contains(frame.visible), "mode \(mode) cut \(full) at \(frame.visible)")
            }
            #expect(harness.visibleText == full)
        }
    }

    @Test("chunking never changes the frames")
    func chunkingInvariance() {
        let text = "Streaming [1] text, with café and 流式输出 and 👩🏽\u{200D}💻 emoji.\n```\nlet x = 1\n```\nEnd"
        let scalars = Array(text.unicodeScalars)
        var timelines: [[Int]] = []
        for size in [1, 2, 3, 7, 64, scalars.count] {
            var harness = PacerHarness()
            var start = 0
            while start < scalars.count {
                let end = min(scalars.count, start + size)
                harness.pacer.append(String(String.UnicodeScalarView(scalars[start..<end])), at: .zero)
                start = end
            }
            harness.run(until: 300)
            timelines.append(harness.frames.map(\.visible))
            #expect(harness.visibleText == String(text.dropLast(3)), "chunk size \(size)")
        }
        #expect(Set(timelines).count == 1)
    }
}

extension String {
    /// Scalar offsets of every grapheme-cluster boundary, including 0 and the end.
    var characterBoundaries: Set<Int> {
        var offsets: Set<Int> = [0]
        var offset = 0
        for character in self {
            offset += character.unicodeScalars.count
            offsets.insert(offset)
        }
        return offsets
    }

    /// Drops the last whitespace-delimited word (the one a streaming pacer holds back).
    func replacingLastWord() -> String {
        guard let space = lastIndex(where: { $0 == " " || $0 == "\n" }) else { return "" }
        return String(self[...space])
    }
}
