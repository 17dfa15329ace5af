import ArgumentParser

/// How `ask`, `chat` and `demo` print answers: full-screen or streaming lines on a terminal (the
/// default), plain text with `--plain`, JSON lines with `--json`.
struct OutputOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Plain output: only the answer text, then the numbered sources (no stages or follow-ups; a pipe gets no escape codes even without it).")
    var plain = false

    @Flag(name: .long, help: "Print each answer's updates as JSON lines.")
    var json = false

    func validate() throws {
        if plain, json { throw ValidationError("choose --plain or --json, not both") }
    }

    /// Standard output, with escape codes only on a terminal and never with `--plain` or `--json`.
    var terminal: TerminalOutput { TerminalOutput(plain: plain || json) }

    /// Whether the full-screen UI may open: a terminal on both ends, and neither flag.
    var allowsFullScreen: Bool { FullScreen.isAvailable(plain: plain || json) }
}
