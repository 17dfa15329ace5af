import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C while an answer streams cancels that answer instead of killing the process, so that
/// what arrived is printed and saved as cancelled, and the command exits with 130. A second
/// Ctrl-C quits at once.
enum Interrupt {
    /// Runs `body` in a task that Ctrl-C (SIGINT) cancels, and returns what it returned and
    /// whether Ctrl-C was pressed. The caller's own task is not cancelled, so it can still save and
    /// print the cancelled answer.
    ///
    /// ```swift
    /// let (text, interrupted) = try await Interrupt.cancellable { try await stream(answer) }
    /// if interrupted { /* save `text` as cancelled, exit 130 */ }
    /// ```
    static func cancellable<T: Sendable>(
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> (value: T, interrupted: Bool) {
        let queue = DispatchQueue(label: "cadence.interrupt")
        let presses = Presses()
        let task = Task { try await body() }
        signal(SIGINT, SIG_IGN)  // the dispatch source below is told instead
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        source.setEventHandler {
            presses.count += 1
            if presses.count == 1 {
                task.cancel()
            } else {
                signal(SIGINT, SIG_DFL)  // the second Ctrl-C: stop waiting for a clean end
                raise(SIGINT)
            }
        }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        let value = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        return (value, queue.sync { presses.count > 0 })
    }

    /// Ctrl-C presses so far. Read and written only on the interrupt's serial queue.
    private final class Presses: @unchecked Sendable {
        var count = 0
    }
}
