import NIOConcurrencyHelpers

// The one deadline of the package, used by the client's WebSocket handshake, the server's
// database calls and every wait in the tests. It lives in CadenceClient, the lowest module all of
// them import that may use NIO's locks (CadenceCore has no dependencies), and is `package`, not
// public API.

/// Runs `body`, throwing ``DeadlineExceeded`` if it takes longer than `timeout` on `clock`.
///
/// The caller gets its answer at the deadline even if `body` ignores cancellation (a query waiting for
/// a connection to a database that is down, a stuck wait in a test): `body` is cancelled and left to
/// end on its own. A caller that is cancelled gets `CancellationError` at once, and `body` is cancelled.
///
/// - Parameters:
///   - timeout: how long `body` may take.
///   - clock: what `timeout` is measured on.
///   - what: what was waited for, in words, for the error's message.
///   - body: the work.
package func withDeadline<T: Sendable>(
    _ timeout: Duration, clock: any Clock<Duration>, waitingFor what: String? = nil,
    _ body: @escaping @Sendable () async throws -> T
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
                outcome.resume(.failure(DeadlineExceeded(what: what, timeout: timeout)))
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

/// A call did not finish within its time (``withDeadline(_:clock:waitingFor:_:)``).
package struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What was waited for, in words, when the caller said.
    package var what: String?
    package var timeout: Duration
    package var description: String {
        if let what { return "\(what) did not happen within \(timeout)" }
        return "no answer within \(timeout)"
    }
}
