import ArgumentParser
import CadenceCore

/// One answer as the command printed it, and so how `ask`, `chat --plain` and `demo --plain` exit.
///
/// | status | meaning |
/// |---|---|
/// | 0 | the answer completed |
/// | 1 | it failed: what arrived is printed, the reason is one line on stderr |
/// | 64 | usage error (ArgumentParser's) |
/// | 124 | a timeout ended it early: the partial text is printed (as `timeout(1)` does) |
/// | 130 | cancelled with Ctrl-C: what arrived is printed and saved as cancelled |
/// | 141 | cancelled because its reader closed the output (`| head`), as SIGPIPE would end it |
struct PrintedAnswer: Sendable {
    var text: String
    /// How the answer ended.
    var ending: AnswerEnding
    /// Whether the output's reader closed it (`cadence ask … | head -1`) before the answer completed:
    /// the answer was cancelled, and nobody reads on.
    var outputClosed = false

    /// The `--help` text that documents the exit status.
    static let exitStatusHelp = """
        Exit status: 0 the answer completed; 1 it failed (what arrived is printed, and the reason on \
        stderr); 64 usage error; 124 a timeout ended it early (the partial text is printed); 130 \
        cancelled with Ctrl-C; 141 cancelled because the output was closed (as by `| head`).
        """

    /// The exit status of this answer.
    var exitCode: ExitCode {
        if outputClosed { return ExitCode(141) }
        return switch ending {
        case .completed: ending.isTimedOut ? ExitCode(124) : .success
        case .failed, .interrupted: .failure
        case .cancelled: ExitCode(130)
        }
    }

    /// Whether the chat stops after this answer, as it would at the prompt: Ctrl-C cancelled it, or
    /// its output was closed.
    var endsTheChat: Bool {
        if case .cancelled = ending { return true }
        return outputClosed
    }

    /// How bad this ending is, for picking the worst of a chat's answers (its exit status): cancelled
    /// is worst, then failed, then timed out, then completed.
    var severity: Int {
        if outputClosed { return 3 }
        return switch ending {
        case .completed: ending.isTimedOut ? 1 : 0
        case .failed, .interrupted: 2
        case .cancelled: 3
        }
    }

    /// Says why on stderr in one line, unless the answer completed.
    func report() {
        if outputClosed { return }  // silent, as a process SIGPIPE ends is
        switch ending {
        case .completed(let completion) where completion.reason == .timedOut:
            let timeout = completion.timeout.map { " (\($0.name))" } ?? ""
            TerminalOutput.error(
                "note: the answer timed out\(timeout); showing the \(completion.text.count) characters received")
        case .completed: return
        case .failed(let failure): TerminalOutput.error(failure.commandLineMessage)
        case .cancelled: TerminalOutput.error("cancelled")
        case .interrupted: TerminalOutput.error("interrupted; showing the last text kept")
        }
    }

    /// Says why on stderr and throws the exit status, unless the answer completed.
    func conclude() throws {
        report()
        if !exitCode.isSuccess { throw exitCode }
    }
}

extension AnswerFailure {
    /// The message, with what to do on the command line when the server wants a token (401), or in the
    /// command's own words when the stream broke a decoder limit (the library's message says to raise
    /// `SSELimits`, which no command-line user can).
    var commandLineMessage: String {
        if let exceededLimit { return Self.limitMessage(exceededLimit) }
        return status == 401 ? message + " Pass the server's token with --token or set CADENCE_TOKEN." : message
    }

    /// The command reads every stream with the default limits (16 MiB): a line or event past them is
    /// not an answer a server or provider really sends.
    private static func limitMessage(_ limit: SSEDecoderError.Code) -> String {
        let what =
            switch limit {
            case .lineTooLong: "a line longer than \(SSELimits.default.maxLineBytes) bytes"
            case .eventTooLarge: "an event larger than \(SSELimits.default.maxEventBytes) bytes"
            }
        return "The server sent \(what), more than any answer needs, so it is not a stream this command can read; "
            + "check that --url (or --base-url) is a Cadence server or the provider's API."
    }
}
