import CadenceClient
import Dispatch
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C while an answer streams cancels that answer instead of killing the process, so that
/// what arrived is printed and saved as cancelled, and the command exits with 130. A second
/// Ctrl-C quits at once. A reader that closes the output (`| head -1`) cancels it the same way.
enum Interrupt {
    /// The command's answer streams, which it waits for before it exits after Ctrl-C, so that each
    /// cancelled answer's `DELETE` goes out first.
    static let answerStreams = AnswerStreamGroup()

    /// What cancelled the body of ``cancellable(_:)``.
    enum Reason: Sendable, Equatable {
        /// Ctrl-C (SIGINT).
        case controlC
        /// Stdout's reader closed it (a write failed with `EPIPE`).
        case outputClosed
    }

    /// Runs `body` in a task that Ctrl-C (SIGINT) or a closed output cancels, and returns what it
    /// returned and what cancelled it, if anything. The caller's own task is not cancelled, so it
    /// can still save and print the cancelled answer.
    ///
    /// ```swift
    /// let (text, interruption) = try await Interrupt.cancellable { try await stream(answer) }
    /// if interruption == .controlC { /* save `text` as cancelled, exit 130 */ }
    /// ```
    static func cancellable<T: Sendable>(
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> (value: T, interrupted: Reason?) {
        let queue = DispatchQueue(label: "cadence.interrupt")
        let task = Task { try await body() }
        let running = Running(task)
        Running.current.withLockedValue { $0 = running }
        signal(SIGINT, SIG_IGN)  // the dispatch source below is told instead
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        source.setEventHandler {
            if !running.controlC() {
                signal(SIGINT, SIG_DFL)  // the second Ctrl-C: stop waiting for a clean end
                raise(SIGINT)
            }
        }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
            Running.current.withLockedValue { if $0 === running { $0 = nil } }
        }
        let value = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        return (value, running.reason)
    }

    /// Stdout's reader has closed it: cancels what ``cancellable(_:)`` runs now, if anything.
    static func outputClosed() {
        Running.current.withLockedValue { $0 }?.cancel(.outputClosed)
    }

    /// The body being run, and what cancelled it first.
    private final class Running: Sendable {
        /// The body ``cancellable(_:)`` runs now.
        static let current = NIOLockedValueBox<Running?>(nil)

        private let cancelTask: @Sendable () -> Void
        /// What cancelled the body first, and how many times Ctrl-C was pressed.
        private let state = NIOLockedValueBox<(reason: Reason?, presses: Int)>((nil, 0))

        init<T: Sendable>(_ task: Task<T, any Error>) {
            cancelTask = { task.cancel() }
        }

        var reason: Reason? { state.withLockedValue { $0.reason } }

        func cancel(_ reason: Reason) {
            state.withLockedValue { if $0.reason == nil { $0.reason = reason } }
            cancelTask()
        }

        /// Ctrl-C: cancels the body; false from the second press on (which then quits at once).
        func controlC() -> Bool {
            let first = state.withLockedValue { state -> Bool in
                state.presses += 1
                return state.presses == 1
            }
            if first { cancel(.controlC) }
            return first
        }
    }
}
