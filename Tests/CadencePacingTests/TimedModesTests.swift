import CadencePacing
import Testing

/// The seed timings, checked on a 1 ms virtual frame clock so frame rounding cannot hide
/// an off-by-one in the schedule.
@Suite("Typewriter and word-by-word modes")
struct TimedModesTests {
    /// No update-rate limit, so a 1 ms frame clock sees every unit on its own.
    static var unlimited: DisplayPacer.Configuration {
        var configuration = DisplayPacer.Configuration()
        configuration.maximumUpdatesPerSecond = .infinity
        return configuration
    }

    private func revealTimes(_ text: String, mode: DisplayPacer.Mode) -> [(String, Double)] {
        var harness = PacerHarness(DisplayPacer(mode: mode, configuration: Self.unlimited), hz: 1000)
        harness.pacer.append(text, at: .zero)
        harness.run(until: 2000)  // the stream stays open: the last unit is held
        var shown: [(String, Double)] = []
        var previous = 0
        let scalars = Array(text.unicodeScalars)
        for frame in harness.frames where frame.changed {
            shown.append((String(String.UnicodeScalarView(scalars[previous..<frame.visible])), frame.milliseconds))
            previous = frame.visible
        }
        return shown
    }

    @Test("character mode: 8 ms per character, 5 ms after a space, 50 ms after ,.!?;: (seed 000)")
    func typewriter() {
        let shown = revealTimes("Hi, you!\nOk", mode: .character)
        let expected: [(String, Double)] = [
            ("H", 0), ("i", 8), (",", 16), (" ", 66), ("y", 71), ("o", 79), ("u", 87), ("!", 95),
            ("\n", 145), ("O", 153),  // "k" is the unsettled last character: held while streaming
        ]
        #expect(shown.map(\.0) == expected.map(\.0))
        #expect(shown.map(\.1) == expected.map(\.1))
    }

    @Test("word mode: 40 ms per word, 10 ms per whitespace run, citations atomic (seed 002)")
    func wordByWord() {
        let shown = revealTimes("Hello  world[1][2] and [3]\nmore", mode: .word)
        let expected: [(String, Double)] = [
            ("Hello", 0), ("  ", 40), ("world[1][2]", 50), (" ", 90), ("and", 100), (" ", 140), ("[3]", 150),
            ("\n", 190),  // "more" has no whitespace after it yet: held while streaming
        ]
        #expect(shown.map(\.0) == expected.map(\.0))
        #expect(shown.map(\.1) == expected.map(\.1))
    }

    @Test("the schedule waits for text, then resumes at once")
    func scheduleResumes() {
        var harness = PacerHarness(DisplayPacer(mode: .character, configuration: Self.unlimited), hz: 1000)
        harness.pacer.append("ab", at: .zero)
        harness.run(until: 100)
        harness.pacer.append("cd", at: .milliseconds(100))
        harness.run(until: 200)
        #expect(harness.firstTime(reaching: 2) == 100)  // "b" settles when "c" arrives
        #expect(harness.firstTime(reaching: 3) == 108)
    }

    @Test("word mode keeps code lines whole and never shows half a word")
    func wordModeUnits() {
        let text = "Run:\n```\nlet x = 1\nlet y = 2\n```\nok "
        var harness = PacerHarness(DisplayPacer(mode: .word), hz: 60)
        harness.pacer.append(text, at: .zero)
        harness.run(until: 1000)
        harness.pacer.finish()
        harness.runToCompletion()
        let scalars = Array(text.unicodeScalars)
        let cuts = harness.frames.filter(\.changed).map(\.visible)
        for cut in cuts where cut < scalars.count {
            let line = text.unicodeScalars.prefix(cut).split(separator: "\n", omittingEmptySubsequences: false).count
            let insideFence = (3...5).contains(line)
            if insideFence {
                #expect(scalars[cut - 1] == "\n", "cut inside a code line at \(cut)")
            } else {
                #expect(
                    scalars[cut - 1].properties.isWhitespace || scalars[cut].properties.isWhitespace, "cut at \(cut)")
            }
        }
        #expect(harness.visibleText == text)
    }

    @Test("at the end the typewriter's backlog drains within the end drain")
    func typewriterEnd() throws {
        var harness = PacerHarness(DisplayPacer(mode: .character), hz: 60)
        harness.pacer.append(String(repeating: "typed slowly ", count: 50), at: .zero)
        harness.run(until: 200)
        harness.pacer.finish()
        harness.runToCompletion()
        #expect(try #require(harness.firstTime(reaching: harness.pacer.receivedScalarCount)) <= 200 + 100 + 17)
    }
}
