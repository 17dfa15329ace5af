import CadenceCore
import CadenceMarkdown
import CadenceTerminal
import CadenceUI
import Foundation

/// Prints one answer's updates as they stream: stage lines, the text, a line when the connection
/// is being re-established, then the sources and follow-up questions.
///
/// In plain mode only the text and the numbered sources are printed. The text is printed exactly
/// once, however many times the connection was resumed: ``AnswerStream`` never repeats text. A
/// model's answer (``ModelAnswerStream``) is printed as the model wrote it, after its reasoning
/// (``ReasoningText``), with a note on stderr when it stopped for another reason than finishing.
///
/// A chat server's reasoning (``AnswerUpdate/reasoningAppended(_:)``) is written dimmed on a
/// terminal while it streams, then folded to one line ("▸ thought for 4 s") once the answer starts;
/// a refusal is labelled, and each tool call is one line. With `answerTextOnly` (`--plain`) stdout
/// gets the answer text alone: the refusal and tool calls go to stderr.
struct AnswerPrinter {
    let output: TerminalOutput
    let showsStages: Bool
    let answerTextOnly: Bool
    /// The model's reasoning shown before the text, if any.
    let reasoning: ReasoningText?
    private(set) var text = ""
    private(set) var sources: [Source] = []
    private(set) var followUps: [String] = []
    /// Citations the server's check found unsupported (from the completion's metadata).
    private(set) var unsupported: [CitationCheck] = []
    /// Why the model stopped, for a model's answer.
    private(set) var finishReason: FinishReason?
    private var inText = false
    /// Whether the last thing written left the cursor mid-line.
    private var lineOpen = false
    /// The reasoning written so far and not yet folded, as written (to count its rows).
    private var reasoningWritten = ""
    private var reasoningSpan = ReasoningSpan()
    /// The refusal received (written as it comes, or, with `answerTextOnly`, on stderr at the end).
    private var refusal = ""
    /// Time since the answer began, for ``ReasoningSpan``.
    private let now: @Sendable () -> Duration
    /// On a terminal, text is wrapped at word boundaries to this width; elsewhere it is left alone.
    private let wrapWidth: Int?
    private var column = 0

    /// - Parameters:
    ///   - wrapsText: on a terminal, wrap the text at word boundaries (a research answer); `false`
    ///     writes it as it comes (a model's answer).
    ///   - answerTextOnly: write nothing but the answer text on stdout (`--plain`).
    ///   - now: time since the answer began, for "thought for N s".
    init(
        output: TerminalOutput, showsStages: Bool, wrapsText: Bool = true, reasoning: ReasoningText? = nil,
        answerTextOnly: Bool = false, now: @escaping @Sendable () -> Duration = AnswerPrinter.elapsedTime()
    ) {
        self.output = output
        self.showsStages = showsStages
        self.answerTextOnly = answerTextOnly
        self.now = now
        self.reasoning = reasoning
        wrapWidth = output.styled && wrapsText ? TerminalOutput.terminalWidth() - 1 : nil
    }

    mutating func handle(_ update: AnswerUpdate) {
        if reasoningSpan.note(update, at: now()), reasoningSpan.end != nil { foldReasoning() }
        switch update {
        case .textAppended(let token):
            if !inText, showsStages { output.line() }
            if text.isEmpty, reasoning?.wasShown == true { output.write("\n\n") }
            inText = true
            text += token
            output.write(wrapped(TerminalSanitizer.printable(token)))
            lineOpen = !token.hasSuffix("\n")
        case .reasoningAppended(let piece):
            guard output.styled, reasoningSpan.isOpen else { return }
            let shown = ModelOutputText.printableReasoning(piece)
            reasoningWritten += shown
            output.write(output.dim(shown))
        case .refusalAppended(let piece):
            if refusal.isEmpty, !answerTextOnly {
                if lineOpen { output.line() }
                if inText { output.line() }
                output.write(output.bold(ModelOutputText.refusalLabel))
            }
            refusal += piece
            guard !answerTextOnly else { return }
            output.write(TerminalSanitizer.printable(piece))
            lineOpen = !piece.hasSuffix("\n")
        case .toolCallReceived(let call):
            guard !answerTextOnly else {
                TerminalOutput.error(ModelOutputText.toolCallLine(call, width: nil))
                return
            }
            if lineOpen { output.line() }
            lineOpen = false
            let width = output.styled ? TerminalOutput.terminalWidth() - 1 : nil
            output.line(output.cyan(ModelOutputText.toolCallLine(call, width: width)))
        case .sourcesMerged(let merged):
            sources = merged
        case .stageChanged(let stage):
            note(stage.stageDescription)
        case .reconnecting(let attempt, let delay):
            let seconds = delay.seconds
            note("Connection lost; reconnecting (attempt \(attempt)) in \(String(format: "%.1f", seconds)) s…", always: true)
        case .reconnected:
            note("Reconnected", always: true)
        case .completed(let completion):
            sources = completion.sources.isEmpty ? sources : completion.sources
            followUps = completion.followUps
            unsupported = CitationCheck.list(in: completion.metadata).filter { !$0.supported }
            finishReason = completion.finishReason
        case .failed(let answerFailure):
            sources = answerFailure.sources.isEmpty ? sources : answerFailure.sources
        case .cancelled:
            break
        }
    }

    /// Replaces the reasoning written while it streamed with one dimmed line saying how long it took.
    /// Reasoning taller than the screen cannot be taken back (its top has scrolled away), so the line
    /// then follows it.
    private mutating func foldReasoning() {
        guard !reasoningWritten.isEmpty else { return }
        let rows = ModelOutputText.rows(of: reasoningWritten, width: TerminalOutput.terminalWidth())
        reasoningWritten = ""
        output.write(rows < TerminalOutput.terminalHeight() ? ModelOutputText.erase(rows: rows) : "\n")
        output.line(output.dim(ModelOutputText.foldedLine(reasoningSpan)))
    }

    /// Time since the first call, on the continuous clock: when each update arrived.
    static func elapsedTime() -> @Sendable () -> Duration {
        let clock = ContinuousClock()
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// The token as written: a leading space becomes a line break when the word would pass the
    /// right edge, so words are never cut by the terminal.
    private mutating func wrapped(_ token: String) -> String {
        guard let wrapWidth else { return token }
        var result = ""
        for (index, line) in token.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                result += "\n"
                column = 0
            }
            let width = line.count
            if column > 0, column + width > wrapWidth, line.first == " " {
                result += "\n" + line.dropFirst()
                column = width - 1
            } else {
                result += line
                column += width
            }
        }
        return result
    }

    /// A stage or connection note: on its own line before the text; on stderr once text has begun.
    private func note(_ description: String?, always: Bool = false) {
        guard let description = description.map(TerminalSanitizer.printable), showsStages || always else { return }
        if inText {
            if always { TerminalOutput.error(description) }
        } else if showsStages {
            output.line(output.dim("· \(description)"))
        } else {
            TerminalOutput.error(description)
        }
    }

    /// "Not supported by the cited source:", then one line per failed citation check, or nothing.
    static func unsupportedLines(_ citations: [CitationCheck]) -> [String] {
        guard !citations.isEmpty else { return [] }
        return ["", "Not supported by the cited source (the citation may be wrong):"]
            + citations.map { citation in
                let text = TerminalSanitizer.printable(citation.sentence)
                let sentence = text.clipped(to: 100)
                return "  [\(citation.source)]? \"\(sentence)\""
            }
    }

    /// Ends the text and prints the numbered sources and follow-up questions.
    func finish() {
        if lineOpen { output.line() }
        if answerTextOnly, !refusal.isEmpty { TerminalOutput.error(ModelOutputText.refusalLabel + refusal) }
        if !sources.isEmpty {
            output.line()
            output.line(output.bold("Sources"))
            for (index, source) in sources.enumerated() {
                let number = output.cyan("[\(Int(source.id) ?? index + 1)]")
                let (title, url) = (TerminalSanitizer.printable(source.listedTitle), TerminalSanitizer.printable(source.url))
                output.line("  \(number) \(title) — \(output.dim(url))")
            }
        }
        for line in Self.unsupportedLines(unsupported) { output.line(line == "" ? "" : output.dim(line)) }
        if showsStages, !followUps.isEmpty {
            output.line()
            output.line(output.bold("Follow-up questions"))
            for question in followUps { output.line("  • \(TerminalSanitizer.printable(question))") }
        }
        if let note = finishReason.flatMap(Self.note(finishing:)) { TerminalOutput.error(note) }
    }

    /// What to say about a model's answer that completed without finishing on its own.
    static func note(finishing reason: FinishReason) -> String? {
        switch reason {
        case .stop, .truncated: nil  // finished; or failed, which says so itself
        case .length: "note: the answer was cut at the token limit"
        case .toolCalls: "note: the model asked to call a tool; cadence does not run tools"
        default: "note: the answer ended with reason \(reason.name)"
        }
    }
}

/// A model's reasoning, written dimmed as it streams (on a terminal only), before the answer's text,
/// which then starts after a blank line.
///
/// ```swift
/// let reasoning = ReasoningText(output: output)
/// let answer = client.answer(turns, reasoning: reasoning.write)
/// ```
final class ReasoningText: @unchecked Sendable {
    let output: TerminalOutput
    private let lock = NSLock()
    private var shown = false

    init(output: TerminalOutput) {
        self.output = output
    }

    /// Whether any reasoning was written.
    var wasShown: Bool { lock.withLock { shown } }

    func write(_ delta: String) {
        lock.withLock { shown = true }
        output.write(output.dim(TerminalSanitizer.printable(delta)))
    }
}
