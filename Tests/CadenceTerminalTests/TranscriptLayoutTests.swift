import CadenceCore
import CadenceMarkdown
import CadenceUI
import Testing

@testable import CadenceTerminal

@Suite struct TranscriptLayoutTests {
    static let sources = [
        Source(id: "1", title: "Spec", url: "https://html.spec.whatwg.org/"),
        Source(id: "2", title: "MDN", url: "https://developer.mozilla.org/"),
    ]

    static func exchange(
        _ markdown: String = "", phase: ExchangeSnapshot.Phase = .completed, sources: [Source] = [],
        followUps: [String] = [], committed: Int? = nil
    ) -> ExchangeSnapshot {
        let tree = MarkdownParser().parse(markdown)
        return ExchangeSnapshot(
            id: "a1", question: "What is SSE?", phase: phase, document: tree,
            committedBlockCount: committed ?? tree.blocks.count, sources: sources, followUps: followUps)
    }

    static func plain(_ lines: [String]) -> [String] { lines.map(ScreenFrame.plain) }

    @Test func theQuestionComesFirstInBold() {
        var layout = TranscriptLayout(colors: true)
        let lines = layout.lines(for: Self.exchange("Hello."), width: 40)
        #expect(lines[0] == "\u{1B}[1m› What is SSE?\u{1B}[0m")
        var plainLayout = TranscriptLayout(colors: false)
        #expect(plainLayout.lines(for: Self.exchange("Hello."), width: 40) == ["› What is SSE?", "", "Hello."])
    }

    @Test func controlCharactersFromTheServerShowAsSymbols() {
        // The question is the reader's, but the answer, the stage, the sources and the follow-ups
        // come from the server: none may act on the terminal.
        let hostile = "x\u{1B}]0;PWNED\u{07}\u{1B}[2J"
        var exchange = Self.exchange(
            "Text \(hostile)", phase: .failed(message: "boom \(hostile)"),
            sources: [Source(id: "1", title: "T \(hostile)", url: "https://e.x/\(hostile)")],
            followUps: ["Why \(hostile)?"])
        exchange.question = "Q \(hostile)"
        var layout = TranscriptLayout(colors: false)
        let lines = layout.lines(for: exchange, width: 200)
        let text = lines.joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.debugDescription)")
        #expect(text.components(separatedBy: "x␛]0;PWNED␇␛[2J").count >= 5, "\(text)")
        // Narrow: the source line wraps through the other path.
        var narrow = TranscriptLayout(colors: false)
        let wrapped = narrow.lines(for: exchange, width: 12).joined(separator: "\n")
        #expect(!wrapped.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(wrapped.debugDescription)")
    }

    @Test func aLongQuestionWrapsUnderItself() {
        var layout = TranscriptLayout(colors: false)
        var exchange = Self.exchange()
        exchange.question = "How does the server resume an answer after the connection drops?"
        let lines = layout.lines(for: exchange, width: 30)
        #expect(lines == ["› How does the server resume", "  an answer after the", "  connection drops?"])
    }

    static let stages: [(ResearchEvent.Kind, String)] = [
        (.planningStarted(message: nil), "Planning…"),
        (.searching(source: "corpus"), "Searching corpus…"),
        (.searchComplete(count: 3, source: "corpus"), "Found 3 results in corpus"),
        (.roundStarted(round: 2, message: nil), "Round 2…"),
        (.reflectionStarted(message: nil), "Reflecting…"),
        (.synthesisStarted(message: nil), "Writing the answer…"),
    ]

    @MainActor
    @Test(arguments: 0..<6)
    func theStatusLineShowsTheLatestStageWithASpinner(index: Int) {
        let (stage, description) = Self.stages[index]
        let answer = AnswerViewModel(id: "a1", query: "What is SSE?")
        answer.apply(.stageChanged(.tierSelected(tier: "quick", reason: nil)), at: .zero)
        answer.apply(.stageChanged(stage), at: .zero)
        var layout = TranscriptLayout(colors: false)
        let frame = TranscriptLayout.spinnerFrame(at: .milliseconds(340))
        let lines = layout.lines(for: ExchangeSnapshot(answer), width: 60, spinnerFrame: frame)
        #expect(lines == ["› What is SSE?", "⠸ " + description])
    }

    @Test func theSpinnerTurnsWithTime() {
        var layout = TranscriptLayout(colors: false)
        let running = Self.exchange(phase: .researching(stage: nil))
        let frames = (0..<11).map { layout.lines(for: running, width: 40, spinnerFrame: $0)[1] }
        #expect(frames[0] == "⠋ Thinking…")
        #expect(Set(frames).count == 10)
        #expect(frames[10] == frames[0])
        #expect(TranscriptLayout.spinnerFrame(at: .milliseconds(99)) == 0)
        #expect(TranscriptLayout.spinnerFrame(at: .milliseconds(100)) == 1)
    }

    @Test(arguments: [
        (ExchangeSnapshot.Phase.cancelled, "cancelled"),
        (.timedOut, "timed out — partial answer"),
        (.failed(message: "the server is gone"), "failed: the server is gone"),
    ])
    func endedAnswersSayHow(phase: ExchangeSnapshot.Phase, status: String) {
        var layout = TranscriptLayout(colors: false)
        let lines = layout.lines(for: Self.exchange("Half an answer", phase: phase), width: 40)
        #expect(lines == ["› What is SSE?", status, "", "Half an answer"])
    }

    @Test func failuresAreRedWhenColoured() {
        var layout = TranscriptLayout(colors: true)
        let lines = layout.lines(for: Self.exchange(phase: .failed(message: "boom")), width: 40)
        #expect(lines[1] == "\u{1B}[31mfailed: boom\u{1B}[0m")
    }

    @Test func answerTextWrapsAtTheWidth() {
        let text = String(repeating: "Server-sent events stream text over plain HTTP. ", count: 6)
        var layout = TranscriptLayout(colors: false)
        for width in [24, 40, 80] {
            let body = layout.lines(for: Self.exchange(text), width: width).dropFirst(2)
            #expect(body.allSatisfy { DisplayWidth.of($0) <= width })
            #expect(body.joined(separator: " ").split(separator: " ") == text.split(separator: " "))
        }
    }

    @Test func sourcesAreNumberedAsTheCitationsInTheText() {
        var layout = TranscriptLayout(colors: false)
        let lines = layout.lines(
            for: Self.exchange("SSE is one-way [1]. Browsers reconnect [2].", sources: Self.sources), width: 60)
        #expect(
            lines == [
                "› What is SSE?", "", "SSE is one-way¹. Browsers reconnect².", "", "Sources",
                "  [1] Spec — https://html.spec.whatwg.org/", "  [2] MDN — https://developer.mozilla.org/",
            ])
    }

    @Test func sourcesWithoutNumericIDsAreNumberedInOrder() {
        var layout = TranscriptLayout(colors: false)
        let sources = [Source(id: "spec", title: "Spec", url: "u1"), Source(id: "mdn", title: "MDN", url: "u2")]
        let lines = layout.lines(for: Self.exchange("x", sources: sources), width: 40)
        #expect(lines.suffix(2) == ["  [1] Spec — u1", "  [2] MDN — u2"])
    }

    @Test func aLongSourceLineWraps() {
        var layout = TranscriptLayout(colors: true)
        let sources = [
            Source(id: "1", title: "A rather long title for a source", url: "https://example.com/a/long/path")
        ]
        let lines = layout.lines(for: Self.exchange("x", sources: sources), width: 30)
        #expect(lines.allSatisfy { DisplayWidth.visible($0) <= 30 })
        #expect(
            Self.plain(lines).suffix(4) == [
                "  [1] A rather long title for", "      a source —", "      https://example.com/a/lo", "      ng/path",
            ])
    }

    @Test func followUpsAppearOnlyOnceComplete() {
        var layout = TranscriptLayout(colors: false)
        let followUps = ["How does resume work?"]
        let running = layout.lines(
            for: Self.exchange("x", phase: .researching(stage: nil), followUps: followUps), width: 40)
        #expect(!running.contains("Follow-up questions"))
        let done = layout.lines(for: Self.exchange("x", followUps: followUps), width: 40)
        #expect(done.suffix(3) == ["", "Follow-up questions", "  • How does resume work?"])
    }

    @Test func exchangesComeOldestFirstWithABlankLineBetween() {
        var layout = TranscriptLayout(colors: false)
        var second = Self.exchange("Two.")
        second.id = "a2"
        second.question = "Second?"
        let lines = layout.lines(for: TranscriptSnapshot(exchanges: [Self.exchange("One."), second]), width: 40)
        #expect(lines == ["› What is SSE?", "", "One.", "", "› Second?", "", "Two."])
    }

    // MARK: Cache

    @Test func committedBlocksAreRenderedOnceAndTheTailEveryTime() {
        var layout = TranscriptLayout(colors: false)
        let exchange = Self.exchange(
            "# Title\n\nFirst paragraph.\n\nThe open tail", phase: .researching(stage: nil), committed: 2)
        let first = layout.lines(for: exchange, width: 40)
        #expect(layout.renderedBlockCount == 3)
        let second = layout.lines(for: exchange, width: 40)
        #expect(layout.renderedBlockCount == 4)  // only the tail again
        #expect(second == first)
        _ = layout.lines(for: exchange, width: 30)  // a new width re-wraps everything
        #expect(layout.renderedBlockCount == 7)
    }

    @Test func anExchangeIsLaidOutOncePerVersion() {
        var layout = TranscriptLayout(colors: false)
        var exchange = Self.exchange("# Title\n\nThe open tail", phase: .completed, committed: 1)
        exchange.version = 7
        let first = layout.lines(for: exchange, width: 40)
        let renders = layout.renderedBlockCount
        #expect(layout.lines(for: exchange, width: 40, spinnerFrame: 3) == first)
        #expect(layout.renderedBlockCount == renders, "same version: the lines are reused, even the tail's")
        exchange.document = MarkdownParser().parse("# Title\n\nThe open tail grew")
        exchange.version = 8
        #expect(layout.lines(for: exchange, width: 40).last == "The open tail grew")
        #expect(layout.renderedBlockCount == renders + 1, "a new version: only the tail again")
        exchange.version = nil
        _ = layout.lines(for: exchange, width: 40)
        #expect(layout.renderedBlockCount == renders + 2, "no version (built by hand): laid out every time")
    }

    @Test func aRunningExchangeIsLaidOutAgainForEachSpinnerFrame() {
        var layout = TranscriptLayout(colors: false)
        var exchange = Self.exchange("Streaming", phase: .researching(stage: "Searching corpus…"), committed: 0)
        exchange.version = 1
        let first = layout.lines(for: exchange, width: 40, spinnerFrame: 0)
        #expect(layout.lines(for: exchange, width: 40, spinnerFrame: 10) == first, "frame 10 draws as frame 0")
        let next = layout.lines(for: exchange, width: 40, spinnerFrame: 1)
        #expect(next[1] == "⠙ Searching corpus…" && first[1] == "⠋ Searching corpus…")
    }

    @Test func anAnswerReplacedUnderTheSameIDIsRenderedAfresh() {
        var layout = TranscriptLayout(colors: false)
        _ = layout.lines(for: Self.exchange("Old one.\n\nOld two."), width: 40)
        let replaced = layout.lines(for: Self.exchange("New one.\n\nNew two."), width: 40)
        #expect(replaced.suffix(3) == ["New one.", "", "New two."])
        let retried = layout.lines(for: Self.exchange("Fresh.", committed: 0), width: 40)
        #expect(retried.suffix(1) == ["Fresh."])
    }

    /// A real answer streaming frame by frame: every frame's cached layout equals a fresh one, and
    /// the renders stay far below re-rendering every block on every frame.
    @MainActor
    @Test func aStreamingAnswerLaysOutLikeAFreshLayoutWithFewRenders() {
        let markdown = (1...12).map { "Paragraph \($0) says something about streams [\($0 % 2 + 1)]." }
            .joined(separator: "\n\n")
        let answer = AnswerViewModel(id: "a1", query: "What is SSE?")
        answer.apply(.sourcesMerged(Self.sources), at: .zero)
        var words = markdown.split(separator: " ", omittingEmptySubsequences: false).map { $0 + " " }
        words[words.count - 1].removeLast()
        var layout = TranscriptLayout(colors: true)
        var naiveRenders = 0
        var now = 0
        for (index, word) in words.enumerated() {
            answer.apply(.textAppended(String(word)), at: .milliseconds(index * 20))
            now = index * 20 + 16
            answer.frame(now: .milliseconds(now))
            let snapshot = ExchangeSnapshot(answer)
            var fresh = TranscriptLayout(colors: true)
            #expect(layout.lines(for: snapshot, width: 50) == fresh.lines(for: snapshot, width: 50))
            naiveRenders += snapshot.document.blocks.count
        }
        answer.apply(
            .completed(AnswerCompletion(reason: .completed, text: markdown, sources: Self.sources)),
            at: .milliseconds(now))
        while answer.needsFrames {
            now += 16
            answer.frame(now: .milliseconds(now))
        }
        let final = ExchangeSnapshot(answer)
        #expect(final.phase == .completed)
        var fresh = TranscriptLayout(colors: false)
        let lines = fresh.lines(for: final, width: 50)
        #expect(lines.contains("  [2] MDN — https://developer.mozilla.org/"))
        #expect(lines.contains("Paragraph 12 says something about streams¹."))
        #expect(layout.renderedBlockCount < naiveRenders / 3)
    }

    @Test func aCitationIsDrawnOnlyWhenItPointsAtASource() {
        var layout = TranscriptLayout(colors: false)
        #expect(Self.plain(layout.lines(for: Self.exchange("A chat [1]."), width: 40)).contains("A chat [1]."))
        let cited = Self.plain(layout.lines(for: Self.exchange("Cited [1], not [9].", sources: Self.sources), width: 60))
        #expect(cited.contains("Cited¹, not [9]."))
    }

    @MainActor
    @Test func anUnsupportedCitationIsMarkedOnceTheChecksArrive() {
        let answer = AnswerViewModel(id: "a1", query: "What is SSE?")
        answer.apply(.sourcesMerged(Self.sources), at: .zero)
        answer.apply(.textAppended("One [1].\n\nTwo [2].\n\nEnd.\n"), at: .zero)
        answer.revealAll()
        var layout = TranscriptLayout(colors: false)
        let before = Self.plain(layout.lines(for: ExchangeSnapshot(answer), width: 60))
        #expect(before.contains("Two²."))
        let metadata: [String: JSONValue] = ["citations": [["ordinal": 2, "source": 2, "supported": false, "sentence": "Two"]]]
        answer.apply(
            .completed(AnswerCompletion(reason: .completed, text: answer.text, sources: Self.sources, metadata: metadata)),
            at: .zero)
        answer.revealAll()
        let after = Self.plain(layout.lines(for: ExchangeSnapshot(answer), width: 60))
        #expect(after.contains("Two²?."), "the cached block was drawn again")
        #expect(after.contains("One¹."))
    }

    @Test func tabsInPlainTextWrapAsSpaces() {
        // A question typed or pasted with tabs: each is a space, so the wrap's count is the screen's.
        #expect(DisplayWidth.wrap("› one\ttwo\tthree", width: 11, indent: "  ") == ["› one two", "  three"])
    }
}
