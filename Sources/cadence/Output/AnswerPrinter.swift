import CadenceCore
import CadenceUI

/// Prints one answer's updates as they stream: stage lines, the text, a line when the connection
/// is being re-established, then the sources and follow-up questions.
///
/// In plain mode only the text and the numbered sources are printed. The text is printed exactly
/// once, however many times the connection was resumed: ``AnswerStream`` never repeats text.
struct AnswerPrinter {
    let output: TerminalOutput
    let showsStages: Bool
    private(set) var text = ""
    private(set) var sources: [Source] = []
    private(set) var followUps: [String] = []
    /// Citations the server's check found unsupported (from the completion's metadata).
    private(set) var unsupported: [UnsupportedCitation] = []
    /// How the answer ended, once it has.
    private(set) var ending: AnswerEnding?
    private var inText = false
    /// On a terminal, text is wrapped at word boundaries to this width; elsewhere it is left alone.
    private let wrapWidth: Int?
    private var column = 0

    init(output: TerminalOutput, showsStages: Bool) {
        self.output = output
        self.showsStages = showsStages
        wrapWidth = output.styled ? TerminalOutput.terminalWidth() - 1 : nil
    }

    mutating func handle(_ update: AnswerUpdate) {
        if let ended = AnswerEnding(update) { ending = ended }
        switch update {
        case .textAppended(let token):
            if !inText, showsStages { output.line() }
            inText = true
            text += token
            output.write(wrapped(token))
        case .sourcesMerged(let merged):
            sources = merged
        case .stageChanged(let stage):
            note(stage.stageDescription)
        case .reconnecting(let attempt, let delay):
            let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            note("Connection lost; reconnecting (attempt \(attempt)) in \(String(format: "%.1f", seconds)) s…", always: true)
        case .reconnected:
            note("Reconnected", always: true)
        case .completed(let completion):
            sources = completion.sources.isEmpty ? sources : completion.sources
            followUps = completion.followUps
            unsupported = UnsupportedCitation.list(in: completion.metadata)
        case .failed(let answerFailure):
            sources = answerFailure.sources.isEmpty ? sources : answerFailure.sources
        case .cancelled:
            break
        }
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
        guard let description, showsStages || always else { return }
        if inText {
            if always { TerminalOutput.error(description) }
        } else if showsStages {
            output.line(output.dim("· \(description)"))
        } else {
            TerminalOutput.error(description)
        }
    }

    /// "Not supported by the cited source:", then one line per failed citation check, or nothing.
    static func unsupportedLines(_ citations: [UnsupportedCitation]) -> [String] {
        guard !citations.isEmpty else { return [] }
        return ["", "Not supported by the cited source (the citation may be wrong):"]
            + citations.map { citation in
                let sentence = citation.sentence.count > 100 ? citation.sentence.prefix(99) + "…" : Substring(citation.sentence)
                return "  [\(citation.source)]? \"\(sentence)\""
            }
    }

    /// Ends the text and prints the numbered sources and follow-up questions.
    func finish() {
        if !text.isEmpty, !text.hasSuffix("\n") { output.line() }
        if !sources.isEmpty {
            output.line()
            output.line(output.bold("Sources"))
            for (index, source) in sources.enumerated() {
                let number = output.cyan("[\(Int(source.id) ?? index + 1)]")
                output.line("  \(number) \(source.title) — \(output.dim(source.url))")
            }
        }
        for line in Self.unsupportedLines(unsupported) { output.line(line == "" ? "" : output.dim(line)) }
        if showsStages, !followUps.isEmpty {
            output.line()
            output.line(output.bold("Follow-up questions"))
            for question in followUps { output.line("  • \(question)") }
        }
    }
}
