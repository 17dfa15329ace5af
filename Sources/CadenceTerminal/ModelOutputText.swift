public import CadenceCore
import CadenceMarkdown

/// How a model's output other than its answer text reads in a terminal, the same in the
/// full-screen chat (``TranscriptLayout``) and in the printed answer of `cadence ask`: reasoning
/// (dimmed while it streams, then folded to `ReasoningSpan.summary`), a refusal (labelled), and
/// one line per tool call. Everything the model wrote passes through `TerminalSanitizer`.
///
/// ```swift
/// ModelOutputText.toolCallLine(ToolCall(id: "c1", name: "search", arguments: #"{"q": "sse"}"#), width: 80)
/// // "tool call: search {"q": "sse"}"
/// ModelOutputText.rows(of: "a long line of reasoning", width: 10)   // 3
/// ```
public enum ModelOutputText {
    /// The label before a refusal's text.
    public static let refusalLabel = "refused: "

    /// The reasoning as shown: control characters made visible, tabs as spaces (so its rows can be
    /// counted).
    public static func printableReasoning(_ text: String) -> String {
        TerminalSanitizer.printable(text).replacingTabs()
    }

    /// The folded line of finished reasoning: "▸ thought for 4 s".
    public static func foldedLine(_ span: ReasoningSpan) -> String {
        "▸ " + span.summary
    }

    /// One line for a tool call: `tool call: NAME ARGUMENTS`, its line breaks and tabs as spaces,
    /// cut with "…" to `width` columns when given.
    public static func toolCallLine(_ call: ToolCall, width: Int?) -> String {
        let arguments = call.arguments.split(whereSeparator: \.isNewline).joined(separator: " ")
        let line = TerminalSanitizer.printable("tool call: \(call.name) \(arguments)").replacingTabs()
        guard let width, DisplayWidth.of(line) > width else { return line }
        return DisplayWidth.fit(line, to: max(width - 1, 0)) + "…"
    }

    /// How many terminal rows `text` (printable, without escape codes) takes when written from the
    /// start of a row on a terminal `width` columns wide: each line at least one row, a line exactly
    /// as wide as the terminal one row (the cursor waits at its end).
    public static func rows(of text: String, width: Int) -> Int {
        let width = max(width, 1)
        return text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { rows, line in
            rows + max(1, (DisplayWidth.of(line) + width - 1) / width)
        }
    }

    /// The escape codes that take the cursor from the end of text `rows` rows tall back to the start
    /// of its first row and clear everything below: what folds streamed reasoning away.
    public static func erase(rows: Int) -> String {
        "\r" + (rows > 1 ? "\u{1B}[\(rows - 1)A" : "") + "\u{1B}[J"
    }
}

extension String {
    fileprivate func replacingTabs() -> String {
        contains("\t") ? split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "    ") : self
    }
}
