import Testing

@testable import CadencePacing

/// A pacer keeps one arrival time per chunk only while its adaptive head can read them: in the other
/// modes, once stopped (`revealAll`) and once the stream finished, a long answer of small chunks would
/// otherwise hold 16 bytes per chunk until the pacer goes, several times the text's own size.
@Suite struct ArrivalDeadlinesTests {
    static let chunks = (0..<2_000).map { "w\($0 % 10) " }

    static func fed(_ mode: DisplayPacer.Mode, count: Int = chunks.count) -> DisplayPacer {
        var pacer = DisplayPacer(mode: mode)
        for (index, chunk) in chunks.prefix(count).enumerated() { pacer.append(chunk, at: .milliseconds(index)) }
        return pacer
    }

    @Test func theAdaptiveHeadKeepsTheDueTimesItHasNotPassed() {
        #expect(Self.fed(.adaptive).arrivalDeadlines.count == Self.chunks.count)
    }

    @Test(arguments: [DisplayPacer.Mode.character, .word, .instant])
    func otherModesKeepNone(_ mode: DisplayPacer.Mode) {
        var pacer = Self.fed(mode)
        pacer.advance(to: .milliseconds(5_000))
        #expect(pacer.arrivalDeadlines.count == 0)
        #expect(pacer.visibleScalarCount > 0, "the pacer still reveals text")
    }

    @Test func aStoppedPacerKeepsNoneForTheTextAfterIt() {
        var pacer = Self.fed(.adaptive, count: 100)
        pacer.stop()
        for (index, chunk) in Self.chunks.enumerated().dropFirst(100) { pacer.append(chunk, at: .milliseconds(index)) }
        #expect(pacer.arrivalDeadlines.count == 0)
        pacer.advance(to: .milliseconds(2_001))
        #expect(pacer.visibleScalarCount == pacer.receivedScalarCount, "a stopped pacer shows text as it arrives")
    }

    @Test func aFinishedStreamKeepsNone() {
        var pacer = Self.fed(.adaptive)
        pacer.finish()
        #expect(pacer.arrivalDeadlines.count == 0)
        var frames = 0
        while !pacer.isComplete && frames < 100_000 {
            frames += 1
            pacer.advance(to: .milliseconds(2_000 + frames * 16))
        }
        #expect(pacer.isComplete, "the drain still shows everything")
    }
}
