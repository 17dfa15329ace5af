import ArgumentParser
import CadenceClient
import CadenceCore

/// Runs one question against a research server and prints it; shared by `demo`, `ask` and `chat`.
enum AnswerSession {
    /// Streams the answer to the terminal through ``AnswerStream`` (resume, retry, timeouts).
    /// Throws `ExitCode.failure` after printing whatever arrived and a one-line reason on stderr.
    @discardableResult
    static func run(
        transport: any ResearchTransport, request: AnswerRequest, configuration: ReliabilityConfiguration,
        output: TerminalOutput, showsStages: Bool, recording: AnswerRecording? = nil, json: Bool = false
    ) async throws -> String {
        let updates = AnswerStream(request: request, transport: transport, configuration: configuration)
        if json { return try await printJSON(updates, output: output, recording: recording) }
        var printer = AnswerPrinter(output: output, showsStages: showsStages)
        var recording = recording
        for await update in updates {
            await recording?.record(update)
            printer.handle(update)
        }
        printer.finish()
        if let failure = printer.failure {
            TerminalOutput.error(failure)
            throw ExitCode.failure
        }
        return printer.text
    }

    /// `--json`: each update as one JSON line, as it arrives. Fails like the text output does.
    static func printJSON(
        _ updates: some AsyncSequence<AnswerUpdate, Never>, output: TerminalOutput, recording: AnswerRecording?
    ) async throws -> String {
        var recording = recording
        var text = ""
        var failure: String?
        for await update in updates {
            await recording?.record(update)
            output.line(update.json.jsonText)
            switch update {
            case .textAppended(let chunk): text += chunk
            case .failed(let answerFailure): failure = answerFailure.commandLineMessage
            case .cancelled: failure = "cancelled"
            default: break
            }
        }
        if let failure {
            TerminalOutput.error(failure)
            throw ExitCode.failure
        }
        return text
    }
}

extension AnswerFailure {
    /// The message, with what to do on the command line when the server wants a token (401).
    var commandLineMessage: String {
        status == 401 ? message + " Pass the server's token with --token or set CADENCE_TOKEN." : message
    }
}
