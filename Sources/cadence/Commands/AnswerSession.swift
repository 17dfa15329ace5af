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
        output: TerminalOutput, showsStages: Bool, recording: AnswerRecording? = nil
    ) async throws -> String {
        var printer = AnswerPrinter(output: output, showsStages: showsStages)
        var recording = recording
        for await update in AnswerStream(request: request, transport: transport, configuration: configuration) {
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
}
