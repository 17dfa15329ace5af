import ArgumentParser
import CadenceClient
import CadenceCore

/// Runs one question against a research server and prints it; shared by `demo` and `ask`.
enum AnswerSession {
    /// Streams the answer to the terminal. Throws `ExitCode.failure` after printing whatever
    /// arrived and a one-line reason on stderr when the answer fails.
    @discardableResult
    static func run(client: ResearchClient, request: AnswerRequest, output: TerminalOutput, showsStages: Bool)
        async throws -> String
    {
        var printer = AnswerPrinter(output: output, showsStages: showsStages)
        var failure: String?
        do {
            for try await event in client.answer(request) {
                printer.handle(event)
            }
        } catch let error as CadenceClientError {
            failure = error.message
        } catch is CancellationError {
            failure = "cancelled"
        } catch {
            failure = "\(error)"
        }
        printer.finish()
        if let serverError = printer.serverError {
            failure = "the server reported \(serverError.code): \(serverError.message)"
        } else if failure == nil, printer.completion == nil {
            failure = "the stream ended before the answer was complete (\(printer.text.count) characters received)"
        }
        if let failure {
            TerminalOutput.error(failure)
            throw ExitCode.failure
        }
        return printer.text
    }
}
