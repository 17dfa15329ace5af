import ArgumentParser
import CadenceClient
import CadenceCore

/// Prints one answer as it streams, from a research server (``AnswerStream``) or a model provider
/// (``ModelAnswerStream``); shared by `demo`, `ask` and `chat`.
enum AnswerSession {
    /// Prints the answer's updates with the printer `makePrinter` makes (or as JSON lines with
    /// `json`), saving each first; Ctrl-C cancels it. Returns what was printed and how the answer
    /// ended; the caller reports the ending (``PrintedAnswer/conclude()``).
    static func run(
        _ updates: some AsyncSequence<AnswerUpdate, Never> & Sendable, output: TerminalOutput,
        recording: AnswerRecording? = nil, json: Bool = false,
        printer makePrinter: @escaping @Sendable () -> AnswerPrinter
    ) async throws -> PrintedAnswer {
        if json { return try await printJSON(updates, output: output, recording: recording) }
        let (printer, ending, outputClosed) = try await present(updates, recording: recording, start: makePrinter) {
            printer, update in printer.handle(update)
        }
        printer.finish()
        return PrintedAnswer(text: printer.text, ending: ending, outputClosed: outputClosed)
    }

    /// `--json`: each update as one JSON line, as it arrives.
    static func printJSON(
        _ updates: some AsyncSequence<AnswerUpdate, Never> & Sendable, output: TerminalOutput,
        recording: AnswerRecording?
    ) async throws -> PrintedAnswer {
        let (text, ending, outputClosed) = try await present(updates, recording: recording) {
            ""
        } show: { text, update in
            output.line(update.json.jsonText)
            if case .textAppended(let chunk) = update { text += chunk }
        }
        return PrintedAnswer(text: text, ending: ending, outputClosed: outputClosed)
    }

    /// Shows each update with `show` as it arrives, saving it first, and returns what was shown
    /// and how the answer ended. Ctrl-C cancels the answer: the cancellation is then shown and
    /// saved like any other ending (by this task, which Ctrl-C does not cancel). `outputClosed` says
    /// that a closed output cancelled it, or ended it in any way short of complete.
    static func present<Shown: Sendable>(
        _ updates: some AsyncSequence<AnswerUpdate, Never> & Sendable, recording: AnswerRecording?,
        start: @escaping @Sendable () -> Shown, show: @escaping @Sendable (inout Shown, AnswerUpdate) -> Void
    ) async throws -> (shown: Shown, ending: AnswerEnding, outputClosed: Bool) {
        let (result, interrupted) = try await Interrupt.cancellable { [recording] in
            var shown = start()
            var recording = recording
            var text = ""
            var ending: AnswerEnding?
            for await update in updates {
                await recording?.record(update)
                show(&shown, update)
                if case .textAppended(let chunk) = update { text += chunk }
                if let ended = AnswerEnding(update) { ending = ended }
            }
            return (shown, recording, text, ending)
        }
        var (shown, recording, text, streamEnding) = result
        if streamEnding == nil {
            // Only Ctrl-C (or a closed output) ends the updates early: the stream itself always ends
            // with a terminal one.
            let cancelled = AnswerUpdate.cancelled(partialText: text)
            await recording?.record(cancelled)
            show(&shown, cancelled)
        }
        let ending = streamEnding ?? .cancelled(partialText: text)
        guard let interrupted else { return (shown, ending, false) }
        // The command exits next: not before the server was asked to stop the answer (the request
        // gives up after a few seconds; a second Ctrl-C quits at once). Whether the updates ended
        // early or with the stream's own `cancelled` (the stream can deliver it as the reader
        // leaves), the stream may still be sending that request.
        await Interrupt.answerStreams.waitUntilAllEnded()
        return (shown, ending, interrupted == .outputClosed && !ending.isComplete)
    }
}
