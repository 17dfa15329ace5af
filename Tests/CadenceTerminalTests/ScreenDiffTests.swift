import Testing

@testable import CadenceTerminal

@Suite struct ScreenDiffTests {
    static let size = TerminalSize(rows: 4, columns: 20)

    static func frame(_ rows: [String], cursor: Int = 2) -> ScreenFrame {
        ScreenFrame(size: size, rows: rows, cursorRow: 3, cursorColumn: cursor)
    }

    static let base = frame(["one", "two", "three", "› "])

    @Test func identicalFramesWriteNothing() {
        #expect(ScreenDiff.update(from: Self.base, to: Self.base) == "")
    }

    @Test func oneChangedRowWritesOnlyThatRow() {
        let next = Self.frame(["one", "TWO", "three", "› "])
        let bytes = ScreenDiff.update(from: Self.base, to: next)
        #expect(bytes == "\u{1B}[?25l\u{1B}[2;1H\u{1B}[2KTWO\u{1B}[4;3H\u{1B}[?25h")
        #expect(!bytes.contains("one") && !bytes.contains("three"))
    }

    @Test func aMovedCursorAloneIsOneCursorMove() {
        #expect(
            ScreenDiff.update(from: Self.base, to: Self.frame(["one", "two", "three", "› "], cursor: 5))
                == "\u{1B}[4;6H")
    }

    @Test func aFirstFrameOrANewSizeRedrawsEverything() {
        let full = ScreenDiff.update(from: nil, to: Self.base)
        #expect(full.contains("\u{1B}[2J"))
        #expect(["one", "two", "three"].allSatisfy { full.contains($0) })
        let wider = ScreenFrame(
            size: TerminalSize(rows: 4, columns: 30), rows: Self.base.rows, cursorRow: 3, cursorColumn: 2)
        #expect(ScreenDiff.update(from: Self.base, to: wider).contains("\u{1B}[2J"))
    }

    @Test func replayingTheDiffsGivesTheLastFrame() {
        var screen = VirtualScreen(size: Self.size)
        var previous: ScreenFrame?
        let frames = [
            Self.base, Self.frame(["one", "TWO", "three", "› "]), Self.frame(["", "TWO", "3", "› a"], cursor: 3),
            Self.frame(["x", "", "", "› "]),
        ]
        for frame in frames {
            screen.apply(ScreenDiff.update(from: previous, to: frame))
            previous = frame
            #expect(screen.text == frame.plainRows.map { $0 == "› " ? "›" : $0 })
        }
    }
}
