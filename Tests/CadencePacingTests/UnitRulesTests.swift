import CadencePacing
import Testing

/// What may be visible while a stream is open, for the adaptive mode's unit rules.
@Suite("Unit rules (adaptive)")
struct UnitRulesTests {
    /// Feeds `chunks` at t = 0 (stream open), runs long enough for the pacer to reveal
    /// everything revealable (longer than the latency budget, less than the held-unit release),
    /// returns the visible text.
    private func visibleWhileOpen(_ chunks: [String], mode: DisplayPacer.Mode = .adaptive) -> String {
        var harness = PacerHarness(DisplayPacer(mode: mode))
        for chunk in chunks { harness.pacer.append(chunk, at: .zero) }
        harness.run(until: 1000)
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
        // An ideograph is a unit of its own, and settled as soon as it arrives.
        #expect(visibleWhileOpen(["流式输出。下一"]) == "流式输出。下一")
        // "。" stays with "出": revealed a unit at a time, the text never ends between them.
        var harness = PacerHarness(hz: 240)
        harness.pacer.append(String(repeating: "流式输出。", count: 20), at: .zero)
        harness.run(until: 200)
        let cuts = Set(harness.frames.filter(\.changed).map(\.visible))
        #expect(cuts.count > 5)
        #expect(cuts.allSatisfy { $0 % 5 != 4 })
    }

    @Test(
        "units follow the script: ideographs, kana and Hangul syllables alone, Thai by cluster, spaced scripts by word",
        arguments: [
            // Japanese: ideographs and kana that take no voicing mark settle at once; か may still
            // become が (decomposed), so it waits for what follows.
            ("日本語の文章です。", "日本語の文章です。"),
            ("日本語の文章では", "日本語の文章で"),  // は may become ば
            ("読者はアプリが壊れたと感じるか", "読者はアプリが壊れたと感じる"),
            // Korean: a precomposed syllable is a unit, even inside a spaced word.
            ("한국어는 띄어쓰기를 사용하지만 조", "한국어는 띄어쓰기를 사용하지만 조"),
            // Thai has no spaces and no ideographs: one grapheme cluster at a time, the last
            // cluster held (a vowel or tone mark may still attach to it).
            ("สวัสดีครับ", "สวัสดีครั"),
            ("ພາສາລາວ", "ພາສາລາ"),  // Lao
            ("ភាសាខ្មែរ", "ភាសាខ្មែ"),  // Khmer: ខ្មែ (a stacked consonant and a vowel) is one cluster
            // Spaced scripts keep whole words, whatever their alphabet.
            ("Привет, ми", "Привет, "),
            ("مرحبا بالعا", "مرحبا "),
            ("Grüße aus Kö", "Grüße aus "),
            // Mixed: a Latin word inside CJK text is still whole.
            ("模型 Ångstr", "模型 "),
            // Emoji are units of their own, a keycap too, once nothing can extend them.
            ("出来。👍🏾✨1️⃣", "出来。👍🏾✨1️⃣"),
            ("出来。👍", "出来。"),  // a skin tone may follow
            ("家族👨\u{200D}👩", "家族"),  // a ZWJ sequence may continue
        ])
    func scriptUnits(text: String, expected: String) {
        #expect(visibleWhileOpen([text]) == expected)
        // Whatever is visible ends between grapheme clusters.
        let visible = visibleWhileOpen([text])
        #expect(text.characterBoundaries.contains(visible.unicodeScalars.count))
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
            harness.run(until: 1000)
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
