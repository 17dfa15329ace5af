import CadenceCore
import CadenceMarkdown
import CadenceUI
import Testing

@testable import CadenceTerminal

/// A chat model's reasoning, refusal and tool calls in the full-screen transcript and in the lines
/// `cadence ask` prints.
@Suite struct ModelOutputLayoutTests {
    static func exchange(
        _ markdown: String = "", phase: ExchangeSnapshot.Phase = .completed, reasoning: String = "",
        span: ReasoningSpan = ReasoningSpan(), refusal: String = "", toolCalls: [ToolCall] = []
    ) -> ExchangeSnapshot {
        let tree = MarkdownParser().parse(markdown)
        return ExchangeSnapshot(
            id: "a1", question: "Hi?", phase: phase, document: tree, committedBlockCount: tree.blocks.count,
            reasoning: reasoning, reasoningSpan: span, refusal: refusal, toolCalls: toolCalls)
    }

    static func span(_ updates: (AnswerUpdate, Duration)...) -> ReasoningSpan {
        var span = ReasoningSpan()
        for (update, time) in updates { span.note(update, at: time) }
        return span
    }

    @Test func reasoningShowsDimmedWhileItStreams() {
        let open = Self.span((.reasoningAppended("x"), .seconds(1)))
        var layout = TranscriptLayout(colors: true)
        let lines = layout.lines(
            for: Self.exchange(phase: .researching(stage: nil), reasoning: "First, think.\nThen answer.", span: open),
            width: 40)
        #expect(Array(lines.suffix(2)) == ["\u{1B}[2mFirst, think.\u{1B}[0m", "\u{1B}[2mThen answer.\u{1B}[0m"])
    }

    @Test func reasoningFoldsToOneLineOnceTheTextStarts() {
        let closed = Self.span((.reasoningAppended("x"), .seconds(1)), (.textAppended("H"), .milliseconds(5_100)))
        var layout = TranscriptLayout(colors: false)
        let lines = layout.lines(
            for: Self.exchange("Hello.", phase: .researching(stage: nil), reasoning: "Long thoughts", span: closed),
            width: 40)
        #expect(Array(lines.dropFirst(2)) == ["▸ thought for 4 s", "", "Hello."])
        var restored = TranscriptLayout(colors: false)
        #expect(
            Array(restored.lines(for: Self.exchange("Hello.", reasoning: "From history"), width: 40).dropFirst())
                == ["▸ thought", "", "Hello."])
    }

    @Test func aRefusalIsLabelledAndToolCallsAreOneLineEach() {
        let calls = [
            ToolCall(id: "1", name: "search", arguments: "{\"q\":\n \"sse\"}"),
            ToolCall(id: "2", name: "fetch", arguments: String(repeating: "x", count: 100)),
        ]
        var layout = TranscriptLayout(colors: false)
        let lines = layout.lines(for: Self.exchange(refusal: "I can't help with that.", toolCalls: calls), width: 30)
        #expect(
            Array(lines.dropFirst()) == [
                "", "refused: I can't help with", "that.", "", "tool call: search {\"q\":  \"sse…",
                "tool call: fetch xxxxxxxxxxxx…",
            ])
        var colored = TranscriptLayout(colors: true)
        #expect(colored.lines(for: Self.exchange(refusal: "No."), width: 30).contains("\u{1B}[1mrefused: \u{1B}[0mNo."))
    }

    @Test func nothingTheModelWroteReachesTheTerminalRaw() {
        let hostile = "x\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m"
        let open = Self.span((.reasoningAppended("x"), .seconds(1)))
        let running = Self.exchange(
            phase: .researching(stage: nil), reasoning: "R \(hostile)", span: open, refusal: "No \(hostile)",
            toolCalls: [ToolCall(id: "1", name: "n\(hostile)", arguments: "a \(hostile)")])
        var layout = TranscriptLayout(colors: false)
        let text = layout.lines(for: running, width: 200).joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x80..<0xA0).contains($0.value) })
        #expect(text.components(separatedBy: "x␛]0;PWNED␇␛[2J").count == 5, "\(text)")
        #expect(!ModelOutputText.printableReasoning(hostile).contains("\u{1B}"))
    }

    @Test func reasoningRowsCountWrappedAndWideLines() {
        #expect(ModelOutputText.rows(of: "", width: 10) == 1)
        #expect(ModelOutputText.rows(of: "0123456789", width: 10) == 1, "a full row keeps the cursor on it")
        #expect(ModelOutputText.rows(of: "0123456789a", width: 10) == 2)
        #expect(ModelOutputText.rows(of: "a\n\nb", width: 10) == 3)
        #expect(ModelOutputText.rows(of: "日本語日本語", width: 10) == 2, "wide characters take two columns")
        #expect(ModelOutputText.erase(rows: 1) == "\r\u{1B}[J")
        #expect(ModelOutputText.erase(rows: 3) == "\r\u{1B}[2A\u{1B}[J")
    }

    @MainActor
    @Test func theSnapshotOfAnAnswerCarriesItsModelOutput() {
        let answer = AnswerViewModel(id: "a", query: "Hi?")
        answer.apply(.reasoningAppended("Hmm."), at: .seconds(1))
        answer.apply(.refusalAppended("No."), at: .seconds(3))
        let snapshot = ExchangeSnapshot(answer)
        #expect(snapshot.reasoning == "Hmm." && snapshot.refusal == "No.")
        #expect(snapshot.reasoningSpan.duration == .seconds(2))
    }
}
