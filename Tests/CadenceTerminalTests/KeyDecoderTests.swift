import Testing

@testable import CadenceTerminal

@Suite struct KeyDecoderTests {
    static let esc = "\u{1B}"

    /// Every kind of input at once, and what it decodes to.
    static let corpus: [UInt8] = Array(
        ("héllo 日本😀" + esc + "[A" + esc + "[B" + esc + "[C" + esc + "[D" + esc + "OH" + esc + "[F" + esc + "[1~"
            + esc + "[4~" + esc + "[5~" + esc + "[6~" + esc + "[3~" + esc + "[1;5C" + "\u{7F}\u{08}\u{03}\u{04}"
            + "\u{01}\u{05}\u{15}\u{17}\u{0B}\u{0C}" + esc + "[200~pasted\r\nline " + esc + "[A inside" + esc
            + "[201~" + esc + "[<64;10;5M" + esc + "[<65;10;5M" + esc + "[<0;1;1M" + esc + "[<0;1;1m" + esc
            + "[99X" + "ok\r\t").utf8)

    static let expected: [KeyEvent] = [
        .text("héllo 日本😀"), .up, .down, .right, .left, .home, .end, .home, .end, .pageUp, .pageDown, .delete,
        .right, .backspace, .backspace, .control("c"), .control("d"), .control("a"), .control("e"),
        .control("u"), .control("w"), .control("k"), .control("l"),
        .paste("pasted\nline \u{1B}[A inside"), .wheelUp, .wheelDown, .text("ok"), .enter, .tab,
    ]

    /// Feeds `bytes` in chunks of `size` and joins consecutive text events.
    static func decode(_ bytes: [UInt8], chunkSize size: Int) -> [KeyEvent] {
        var decoder = KeyDecoder()
        var events: [KeyEvent] = []
        var start = 0
        while start < bytes.count {
            events += decoder.feed(bytes[start..<min(start + size, bytes.count)])
            start += size
        }
        return KeyDecoder.merged(events)
    }

    @Test(arguments: [1, 2, 3, 7, 64, Int.max / 2])
    func chunkingNeverChangesTheKeys(chunkSize: Int) {
        #expect(Self.decode(Self.corpus, chunkSize: chunkSize) == Self.expected)
    }

    @Test func anEscapeSequenceSplitAcrossReadsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("a\u{1B}".utf8)) == [.text("a")])
        #expect(decoder.hasPendingInput)
        #expect(decoder.feed(Array("[5".utf8)) == [])
        #expect(decoder.feed(Array("~b".utf8)) == [.pageUp, .text("b")])
        #expect(!decoder.hasPendingInput)
    }

    @Test func aSplitUTF8CharacterIsKept() {
        var decoder = KeyDecoder()
        let bytes = Array("日".utf8)
        #expect(decoder.feed(bytes[0..<1]) == [])
        #expect(decoder.feed(bytes[1..<2]) == [])
        #expect(decoder.feed(bytes[2..<3]) == [.text("日")])
    }

    @Test func aLoneEscapeIsTheEscapeKeyOnlyAfterAFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPendingInput)
        #expect(decoder.feed([0x1B, 0x1B]) == [.escape])
        #expect(decoder.feed(Array("[A".utf8)) == [.up])
    }

    @Test func flushDropsAnUnfinishedSequenceButNotAnOpenPaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[12".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("x".utf8)) == [.text("x")])
        #expect(decoder.feed(Array("\u{1B}[200~abc\u{1B}[20".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("1~".utf8)) == [.paste("abc")])
    }

    @Test func altKeyIsEscapeThenTheKey() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}x".utf8)) == [.escape, .text("x")])
    }

    @Test func unknownSequencesAndGarbageAreDropped() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[?1;2$y\u{1B}[M!!!z".utf8)) == [.text("z")])
        #expect(decoder.feed([0xFF, 0xC3, 0x28, 0x80, 0x41]) == [.text("("), .text("A")].merged)
        // A runaway sequence with no final byte is dropped, not kept forever.
        #expect(decoder.feed([0x1B, 0x5B] + Array(repeating: 0x30, count: 200) + [0x41]) == [])
        #expect(!decoder.hasPendingInput)
    }

    @Test func randomBytesNeverTrapAndKeepLittlePending() {
        var generator = SeededGenerator(seed: 42)
        var decoder = KeyDecoder()
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...16, using: &generator)
            // Mostly escape-sequence material, so sequences really start and break.
            let bytes = (0..<count).map { _ -> UInt8 in
                let pick = UInt8.random(in: 0...9, using: &generator)
                return pick < 3
                    ? [0x1B, 0x5B, 0x3C, 0x3B, 0x7E][Int(pick) + Int.random(in: 0...2, using: &generator)]
                    : UInt8.random(in: 0...255, using: &generator)
            }
            _ = decoder.feed(bytes)
            if decoder.paste == nil { #expect(decoder.pending.count <= KeyDecoder.maximumSequenceLength + 4) }
        }
    }
}

extension [KeyEvent] {
    var merged: [KeyEvent] { KeyDecoder.merged(self) }
}

/// SplitMix64, for reproducible random input.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
