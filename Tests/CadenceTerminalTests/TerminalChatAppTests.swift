import CadenceCore
import CadenceTesting
import CadenceUI
import Testing

@testable import CadenceTerminal

@MainActor
@Suite struct TerminalChatAppTests {
    static let sources = [Source(id: "1", title: "Spec", url: "https://spec.example/")]

    @MainActor
    struct Harness {
        let answers = ScriptedAnswers()
        let terminal = FakeTerminal()
        let chat: ChatViewModel
        let app: TerminalChatApp
        var screen = VirtualScreen(size: TerminalSize(rows: 12, columns: 40))
        var now = 0

        init(question: String? = "What is SSE?", exit: ExitPolicy = .interactive) {
            chat = ChatViewModel(clock: ManualClock.stepping(), open: answers.source)
            app = TerminalChatApp(chat: chat, terminal: terminal, initialQuestion: question, colors: false, exit: exit)
            app.start()
        }

        /// Runs frames for `milliseconds`, replaying what is written on a virtual screen.
        @discardableResult
        mutating func frames(_ milliseconds: Int = 16) -> Bool {
            var going = true
            for _ in 0..<max(milliseconds / 16, 1) {
                now += 16
                going = app.frame(now: .milliseconds(now))
            }
            for text in terminal.written { screen.apply(text) }
            terminal.written.removeAll()
            return going
        }

        func type(_ text: String) { app.handle(.bytes(Array(text.utf8))) }
    }

    @Test func theInitialQuestionIsSentAndDrawn() async {
        var harness = Harness()
        #expect(harness.chat.answers.map(\.query) == ["What is SSE?"])
        harness.frames()
        #expect(harness.screen.text[0] == "› What is SSE?")
        #expect(harness.screen.text[1].hasPrefix("⠋ Thinking…") || harness.screen.text[1].hasSuffix("Thinking…"))
        #expect(harness.screen.text[11] == "›")
    }

    @Test func anAnswerStreamsInWithStagesAndSources() async {
        var harness = Harness()
        var finished: [String] = []
        harness.app.onAnswerFinished = { finished.append($0.id) }
        harness.answers.push(.stageChanged(.searching(source: "corpus")))
        await settle { harness.chat.answers[0].stage != nil }
        harness.frames()
        #expect(harness.screen.text[1].hasSuffix("Searching corpus…"))
        harness.answers.push(
            .sourcesMerged(Self.sources), .textAppended("SSE is a one-way stream [1]."),
            .completed(
                AnswerCompletion(reason: .completed, text: "SSE is a one-way stream [1].", sources: Self.sources)))
        await settle { !harness.chat.isStreaming }
        harness.frames(2_000)
        #expect(
            harness.screen.text.prefix(7) == [
                "› What is SSE?", "✓ searched corpus · 1 source", "", "SSE is a one-way stream¹.", "", "Sources",
                "  [1] Spec — https://spec.example/",
            ], "the status line sums up the research once the answer is done")
        #expect(finished == ["answer-1"])
        harness.frames(1_000)
        #expect(finished == ["answer-1"])  // reported once
        #expect(harness.terminal.written.isEmpty)  // nothing changes: nothing written
    }

    @Test func ctrlCCancelsTheStreamingAnswerThenLeaves() async {
        var harness = Harness()
        harness.answers.push(.textAppended("Half an answer"))
        await settle { harness.chat.answers[0].text == "Half an answer" }
        harness.type("\u{03}")
        #expect(harness.app.exit == nil)
        #expect(harness.chat.answers[0].ending == .cancelled(partialText: "Half an answer"))
        let going = harness.frames()
        #expect(going)
        #expect(harness.screen.text.prefix(4) == ["› What is SSE?", "cancelled", "", "Half an answer"])
        harness.type("\u{03}")
        let stillGoing = harness.frames()
        #expect(!stillGoing)
        #expect(harness.app.exit == .interrupted)
    }

    @Test func enterSendsTheLineAndCtrlDOnAnEmptyLineLeaves() async {
        var questions: [String] = []
        var harness = Harness(question: nil)
        harness.app.onQuestion = { questions.append($0) }
        harness.type("Why?\u{04}")  // Ctrl-D with text deletes forward: nothing here
        #expect(harness.app.exit == nil)
        harness.type("\r")
        #expect(questions == ["Why?"])
        #expect(harness.chat.answers.map(\.query) == ["Why?"])
        harness.frames()
        #expect(harness.screen.text[0] == "› Why?")
        harness.type("\u{04}")
        #expect(harness.app.exit == .endOfInput)
    }

    @Test func typingEditsTheInputLineOnScreen() {
        var harness = Harness(question: nil)
        harness.type("hello wrld")
        harness.type("\u{1B}[D\u{1B}[D\u{1B}[Do")
        harness.frames()
        #expect(harness.screen.text[11] == "› hello world")
        #expect(harness.screen.column == 10)
    }

    @Test func pageUpUnpinsAndEndFollowsAgain() async {
        var harness = Harness()
        let text = (1...40).map { "Line \($0)." }.joined(separator: "\n\n")
        harness.answers.push(.textAppended(text), .completed(AnswerCompletion(reason: .completed, text: text)))
        await settle { !harness.chat.isStreaming }
        harness.frames(3_000)
        #expect(harness.screen.text[9] == "Line 40.")
        harness.type("\u{1B}[5~")
        harness.frames()
        #expect(!harness.app.view.isPinned)
        #expect(harness.screen.text[10].contains("End to follow"))
        harness.type("\u{1B}[<65;1;1M\u{1B}[<65;1;1M\u{1B}[<65;1;1M\u{1B}[<65;1;1M")
        harness.frames()
        #expect(harness.app.view.isPinned)  // the wheel reached the bottom
        harness.type("\u{1B}[A\u{1B}[A")
        harness.frames()
        #expect(harness.screen.text[9] == "Line 39.")  // two lines up
        harness.type("\u{1B}[F")
        harness.frames()
        #expect(harness.screen.text[9] == "Line 40.")
    }

    @Test func aResizeRedrawsAtTheNewWidth() {
        var harness = Harness()
        harness.frames()
        harness.terminal.currentSize = TerminalSize(rows: 8, columns: 30)
        harness.app.handle(.resized)
        harness.frames()
        #expect(harness.terminal.written.isEmpty)
        #expect(harness.app.previousFrame?.rows.count == 8)
        #expect(harness.app.previousFrame?.size.columns == 30)
    }

    @Test func aLoneEscapeIsDecidedAfterTheTimeout() {
        var harness = Harness(question: nil)
        harness.type("\u{1B}")
        harness.frames(32)
        #expect(harness.app.decoder.hasPendingInput)
        harness.frames(48)
        #expect(!harness.app.decoder.hasPendingInput)
    }

    @Test func afterAnswersLeavesOnceEverythingIsShown() async {
        var harness = Harness(exit: .afterAnswers)
        let first = harness.frames()
        #expect(first)
        harness.answers.push(.textAppended("Done."), .completed(AnswerCompletion(reason: .completed, text: "Done.")))
        await settle { !harness.chat.isStreaming }
        var going = true
        for _ in 0..<200 where going { going = harness.frames() }
        #expect(harness.app.exit == .idle)
    }

    @Test func runRestoresTheTerminalOnEveryWayOut() async throws {
        let terminal = FakeTerminal()
        let chat = ChatViewModel(clock: ManualClock.stepping(), open: ScriptedAnswers().source)
        let app = TerminalChatApp(chat: chat, terminal: terminal, colors: false)
        terminal.feed.yield(.bytes([0x04]))
        #expect(try await app.run(clock: ManualClock.stepping()) == .endOfInput)
        #expect(terminal.enterCount == 1 && terminal.restoreCount == 1)

        let closing = FakeTerminal()
        closing.feed.finish()
        let second = TerminalChatApp(chat: chat, terminal: closing, colors: false)
        #expect(try await second.run(clock: ManualClock.stepping()) == .inputClosed)
        #expect(closing.restoreCount == 1)

        // Cancelled while it waits, idle, for input.
        let failing = FakeTerminal()
        let third = TerminalChatApp(chat: chat, terminal: failing, colors: false)
        let running = Task { try await third.run(clock: ManualClock.stepping()) }
        await settle { failing.enterCount == 1 }
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(failing.restoreCount == 1)

        // Cancelled while it sleeps between frames (the stepping clock throws on its sixth sleep).
        let ticking = FakeTerminal()
        let fourth = TerminalChatApp(chat: chat, terminal: ticking, initialQuestion: "Still streaming?", colors: false)
        await #expect(throws: CancellationError.self) { try await fourth.run(clock: ManualClock.stepping(sleepLimit: 5)) }
        #expect(ticking.restoreCount == 1)
    }

    /// With nothing streaming or animating, the app draws once and then sleeps until a key: the
    /// clock, which fails the run on its fourth sleep, sees at most one sleep before the key and one
    /// after, however long the app is left alone.
    @Test func anIdleAppWaitsForInputWithoutFrames() async throws {
        let terminal = FakeTerminal()
        let chat = ChatViewModel(clock: ManualClock.stepping(), open: ScriptedAnswers().source)
        let app = TerminalChatApp(chat: chat, terminal: terminal, colors: false)
        let running = Task { try await app.run(clock: ManualClock.stepping(sleepLimit: 3)) }
        await settle { !terminal.written.isEmpty }
        #expect(terminal.written.joined().contains("›"), "the first frame drew the input line")
        for _ in 0..<200 { await Task.yield() }
        #expect(terminal.written.count == 1, "no frame ran while idle")
        terminal.feed.yield(.bytes([0x04]))
        #expect(try await running.value == .endOfInput)
    }
}
