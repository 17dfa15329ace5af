import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C while an answer streams cancels that answer instead of killing the process, so that
/// what arrived is printed and saved as cancelled, and the command exits with 130. A second
/// Ctrl-C quits at once. A reader that closes the output (`| head -1`) cancels it the same way.
enum Interrupt {
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
        let presses = Presses()
        let task = Task { try await body() }
        let running = Running(task)
        Running.current.withLock { $0 = running }
        signal(SIGINT, SIG_IGN)  // the dispatch source below is told instead
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        source.setEventHandler {
            presses.count += 1
            if presses.count == 1 {
                running.cancel(.controlC)
            } else {
                signal(SIGINT, SIG_DFL)  // the second Ctrl-C: stop waiting for a clean end
                raise(SIGINT)
            }
        }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
            Running.current.withLock { if $0 === running { $0 = nil } }
        }
        let value = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        return (value, running.reason)
    }

    /// Stdout's reader has closed it: cancels what ``cancellable(_:)`` runs now, if anything.
    static func outputClosed() {
        Running.current.withLock { $0 }?.cancel(.outputClosed)
    }

    /// Ctrl-C presses so far. Read and written only on the interrupt's serial queue.
    private final class Presses: @unchecked Sendable {
        var count = 0
    }

    /// The body being run, and what cancelled it first.
    private final class Running: @unchecked Sendable {
        /// The body ``cancellable(_:)`` runs now.
        static let current = Locked<Running?>(nil)

        private let cancelTask: @Sendable () -> Void
        private let state = Locked<Reason?>(nil)

        init<T: Sendable>(_ task: Task<T, any Error>) {
            cancelTask = { task.cancel() }
        }

        var reason: Reason? { state.withLock { $0 } }

        func cancel(_ reason: Reason) {
            state.withLock { if $0 == nil { $0 = reason } }
            cancelTask()
        }
    }

    /// A value behind a lock.
    private final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) {
            self.value = value
        }

        func withLock<R>(_ body: (inout Value) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }
}
