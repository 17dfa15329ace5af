import ArgumentParser
import CadenceCore

/// How an answer ended, and so how `ask`, `chat --plain` and `demo --plain` exit.
///
/// | status | meaning |
/// |---|---|
/// | 0 | the answer completed |
/// | 1 | it failed: what arrived is printed, the reason is one line on stderr |
/// | 64 | usage error (ArgumentParser's) |
/// | 124 | a timeout ended it early: the partial text is printed (as `timeout(1)` does) |
/// | 130 | cancelled with Ctrl-C: what arrived is printed and saved as cancelled |
/// | 141 | cancelled because its reader closed the output (`| head`), as SIGPIPE would end it |
enum AnswerEnding: Sendable, Equatable {
    case completed
    /// A timeout ended the answer with partial text; `note` says so.
    case timedOut(note: String)
    /// The answer failed; `reason` is its one-line message.
    case failed(reason: String)
    case cancelled
    /// The output's reader closed it (`cadence ask … | head -1`): cancelled, nobody reads on.
    case outputClosed

    /// The `--help` text that documents the exit status.
    static let exitStatusHelp = """
        Exit status: 0 the answer completed; 1 it failed (what arrived is printed, and the reason on \
        stderr); 64 usage error; 124 a timeout ended it early (the partial text is printed); 130 \
        cancelled with Ctrl-C; 141 cancelled because the output was closed (as by `| head`).
        """

    /// The ending an update announces, or `nil` for an update that does not end the answer.
    init?(_ update: AnswerUpdate) {
        switch update {
        case .completed(let completion) where completion.reason == .timedOut:
            let timeout = completion.timeout.map { " (\($0.name))" } ?? ""
            self = .timedOut(note: "the answer timed out\(timeout); showing the \(completion.text.count) characters received")
        case .completed:
            self = .completed
        case .failed(let failure):
            self = .failed(reason: failure.commandLineMessage)
        case .cancelled:
            self = .cancelled
        case .textAppended, .reasoningAppended, .refusalAppended, .toolCallReceived, .sourcesMerged, .stageChanged,
            .reconnecting, .reconnected:
            return nil
        }
    }

    /// The exit status of this ending.
    var exitCode: ExitCode {
        switch self {
        case .completed: .success
        case .failed: .failure
        case .timedOut: ExitCode(124)
        case .cancelled: ExitCode(130)
        case .outputClosed: ExitCode(141)
        }
    }

    /// How bad this ending is, for picking the worst of a chat's answers (its exit status): cancelled
    /// is worst, then failed, then timed out, then completed.
    var severity: Int {
        switch self {
        case .completed: 0
        case .timedOut: 1
        case .failed: 2
        case .cancelled, .outputClosed: 3
        }
    }

    /// Says why on stderr in one line, unless the answer completed.
    func report() {
        switch self {
        case .completed: return
        case .timedOut(let note): TerminalOutput.error("note: \(note)")
        case .failed(let reason): TerminalOutput.error(reason)
        case .cancelled: TerminalOutput.error("cancelled")
        case .outputClosed: return  // silent, as a process SIGPIPE ends is
        }
    }

    /// Says why on stderr and throws the exit status, unless the answer completed.
    func conclude() throws {
        report()
        if self != .completed { throw exitCode }
    }
}

/// One answer as the command printed it.
struct PrintedAnswer: Sendable {
    var text: String
    var ending: AnswerEnding
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
