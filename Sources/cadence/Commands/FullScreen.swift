import ArgumentParser
import CadenceClient
import CadenceTerminal
import CadenceUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The full-screen terminal UI for `demo` and `chat`, when the terminal allows it.
enum FullScreen {
    /// Whether to open the full-screen UI: stdin and stdout are a terminal and `--plain`/`--json`
    /// were not given. (`NO_COLOR` keeps the UI, without colours.)
    static func isAvailable(plain: Bool) -> Bool {
        !plain && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Runs the UI until the reader leaves, then waits for the answers' last saves and for the
    /// answers cancelled on the way out to be cancelled on their server too.
    @MainActor
    static func run(chat: ChatViewModel, initialQuestion: String?, history: [String]) async throws {
        let app = TerminalChatApp(
            chat: chat, terminal: RawTerminal(), initialQuestion: initialQuestion, history: history,
            colors: !TerminalOutput.noColor)
        app.describeFailure = \.commandLineMessage  // as line mode says it: the options to change, a --token hint
        do {
            _ = try await app.run(clock: ContinuousClock())
        } catch let error as RawTerminalError {
            TerminalOutput.error("\(error.message); use --plain")
            throw ExitCode.failure
        }
        await chat.pendingWrites()
        await Interrupt.answerStreams.waitUntilAllEnded()
    }
}
