import NIOConcurrencyHelpers

/// Runs `body`, throwing ``DeadlineExceeded`` if it takes longer than `timeout` on `clock`.
///
/// The caller gets its answer at the deadline even if `body` ignores cancellation (a query waiting for
/// a connection to a database that is down): `body` is cancelled and left to end on its own.
func withDeadline<T: Sendable>(
    _ timeout: Duration, clock: any Clock<Duration>, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = DeadlineOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            outcome.install(continuation)
            let work = Task {
                do { outcome.resume(.success(try await body())) } catch { outcome.resume(.failure(error)) }
            }
            let timer = Task {
                do { try await clock.sleep(for: timeout) } catch { return }
                work.cancel()
                outcome.resume(.failure(DeadlineExceeded(timeout: timeout)))
            }
            outcome.onResume { work.cancel(); timer.cancel() }
        }
    } onCancel: {
        outcome.resume(.failure(CancellationError()))
    }
}

/// Resumes a continuation once, with whichever result comes first.
private final class DeadlineOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var cleanup: (@Sendable () -> Void)?
        var done = false
    }

    private let state = NIOLockedValueBox(State())

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLockedValue { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func onResume(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLockedValue { state -> Bool in
            if state.done { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func resume(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLockedValue {
            state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            if state.continuation == nil { state.early = result }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}

/// A call did not finish within its time.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "no answer within \(timeout)" }
}
