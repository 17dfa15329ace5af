import CadenceMarkdown
import CadenceUI
import Testing

@testable import CadenceTerminal

@Suite struct ScreenTests {
    static let size = TerminalSize(rows: 12, columns: 40)  // a viewport of 10 lines
    static func lines(_ count: Int) -> [String] { (0..<count).map { "line \($0)" } }

    static func compose(
        _ lines: [String], _ view: TerminalViewState, input: LineEditor = LineEditor(),
        banner: ConnectionBannerState.Banner? = nil, size: TerminalSize = size
    ) -> ScreenFrame {
        Screen(colors: false).compose(lines: lines, size: size, view: view, input: input, banner: banner)
    }

    @Test func pinnedFollowsTheBottom() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 100, viewportHeight: 10, now: .zero)
        var frame = Self.compose(Self.lines(100), view)
        #expect(frame.rows.count == 12)
        #expect(frame.plainRows[0] == "line 90")
        #expect(frame.plainRows[9] == "line 99")
        #expect(frame.plainRows[10].hasPrefix("─ Enter send"))
        #expect(frame.plainRows[11] == "› ")
        view.contentChanged(lineCount: 103, viewportHeight: 10, now: .zero)
        frame = Self.compose(Self.lines(103), view)
        #expect(frame.plainRows[9] == "line 102")
        #expect(view.newLineCount == 0)
    }

    @Test func shortContentStartsAtTheTop() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 3, viewportHeight: 10, now: .zero)
        let frame = Self.compose(Self.lines(3), view)
        #expect(frame.plainRows[0...3] == ["line 0", "line 1", "line 2", ""])
        view.pageUp()
        #expect(view.isPinned)  // nothing to scroll
    }

    @Test func unpinnedKeepsItsTopLineWhileTextArrivesAndCountsIt() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 100, viewportHeight: 10, now: .zero)
        view.pageUp()
        #expect(!view.isPinned)
        #expect(view.topLine == 81)
        for count in [102, 105, 104, 107] {
            view.contentChanged(lineCount: count, viewportHeight: 10, now: .zero)
            #expect(view.topLine == 81)
        }
        #expect(view.newLineCount == 8)  // 2 + 3 + 3; a re-render one line shorter is not "new"
        let frame = Self.compose(Self.lines(107), view)
        #expect(frame.plainRows[0] == "line 81")
        #expect(frame.plainRows[10].contains("↓ 8 new lines · End to follow"))
    }

    @Test func endPinsAgain() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 100, viewportHeight: 10, now: .zero)
        view.scroll(by: -30)
        view.contentChanged(lineCount: 120, viewportHeight: 10, now: .zero)
        #expect(view.topLine == 60)
        view.followBottom(now: .zero)
        #expect(view.isPinned && view.newLineCount == 0)
        #expect(view.topLine == 110)
        let frame = Self.compose(Self.lines(120), view)
        #expect(!frame.plainRows[10].contains("new line"))
    }

    @Test func scrollingBackToTheBottomPinsAgain() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 50, viewportHeight: 10, now: .zero)
        view.scroll(by: -3)
        #expect(!view.isPinned && view.topLine == 37)
        view.scroll(by: 2)
        #expect(!view.isPinned)
        view.scroll(by: 5)
        #expect(view.isPinned && view.topLine == 40)
        view.scroll(by: 5)
        #expect(view.isPinned)
    }

    @Test func sendingPinsAgain() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 50, viewportHeight: 10, now: .zero)
        view.pageUp()
        view.messageSent(now: .zero)
        #expect(view.isPinned)
        view.pageUp()
        view.pageDown()
        #expect(view.isPinned)
        view.pageUp()
        view.scroll(by: -1000)
        #expect(view.topLine == 0)
    }

    @Test func resizingKeepsAnUnpinnedPlaceInProportion() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 100, viewportHeight: 10, now: .zero)
        view.scroll(by: -50)
        view.resized(lineCount: 200, viewportHeight: 20)
        #expect(view.topLine == 80)
        #expect(view.newLineCount == 0)
    }

    @Test func resizingReWrapsTheTranscript() {
        let text = String(repeating: "Streams reconnect on their own and resume where they stopped. ", count: 5)
        var layout = TranscriptLayout(colors: true)
        let exchange = ExchangeSnapshot(
            id: "a", question: "q", phase: .completed,
            document: CadenceMarkdownParse.tree(text), committedBlockCount: 1)
        for size in [TerminalSize(rows: 30, columns: 80), TerminalSize(rows: 30, columns: 32)] {
            let lines = layout.lines(for: TranscriptSnapshot(exchanges: [exchange]), width: size.columns)
            var view = TerminalViewState()
            view.contentChanged(lineCount: lines.count, viewportHeight: Screen.viewportHeight(for: size), now: .zero)
            let frame = Self.compose(lines, view, size: size)
            #expect(frame.rows.allSatisfy { DisplayWidth.visible($0) <= size.columns })
            let words = frame.plainRows.prefix(28).joined(separator: " ").split(separator: " ")
            #expect(Array(words.dropFirst(2)) == text.split(separator: " "))
        }
    }

    @Test(arguments: [
        (ConnectionBannerState.Banner.reconnecting(attempt: 2, startsAt: .seconds(3)), "Reconnecting (attempt 2)…"),
        (.reconnected, "Reconnected"),
    ])
    func theBannerTakesTheStatusRow(banner: ConnectionBannerState.Banner, text: String) {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 5, viewportHeight: 10, now: .zero)
        let frame = Self.compose(Self.lines(5), view, banner: banner)
        #expect(frame.plainRows[10].hasPrefix("─ " + text + " ─"))
        #expect(DisplayWidth.of(frame.plainRows[10]) == 40)
    }

    @Test func theInputLineCarriesTheCursor() {
        var editor = LineEditor()
        editor.insert("What is SSE?")
        editor.moveLeft()
        let frame = Self.compose([], TerminalViewState(), input: editor)
        #expect(frame.plainRows[11] == "› What is SSE?")
        #expect(frame.cursorRow == 11)
        #expect(frame.cursorColumn == 13)
    }

    @Test func longRowsAreCutToTheWidth() {
        var view = TerminalViewState()
        view.contentChanged(lineCount: 1, viewportHeight: 10, now: .zero)
        let frame = Self.compose(["\u{1B}[1m" + String(repeating: "日", count: 30) + "\u{1B}[0m"], view)
        #expect(DisplayWidth.visible(frame.rows[0]) == 40)
        #expect(frame.rows[0].hasSuffix("\u{1B}[0m"))
    }

    @Test func aTinyTerminalStillHasAnInputLine() {
        let frame = Self.compose(Self.lines(5), TerminalViewState(), size: TerminalSize(rows: 1, columns: 10))
        #expect(frame.plainRows == ["› "])
    }
}

enum CadenceMarkdownParse {
    static func tree(_ text: String) -> MarkdownTree { MarkdownParser().parse(text) }
}
