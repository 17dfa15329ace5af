import NIOConcurrencyHelpers

/// The answers being cancelled on their servers right now: readers left them, and their drivers are
/// sending `DELETE /v1/answers/{id}` (``AnswerStream/cancelsOnServer``).
///
/// A server keeps producing an answer whose reader merely disconnected (it can be resumed), so a
/// process that exits before the request is sent, such as `cadence ask` after Ctrl-C, leaves the
/// model writing what nobody reads. ``AnswerStream/serverCancellationsSent()`` waits for them.
final class ServerCancellations: Sendable {
    static let shared = ServerCancellations()

    private struct State {
        var pending = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Counts one cancellation in flight, until ``end()``.
    func begin() {
        state.withLockedValue { $0.pending += 1 }
    }

    /// Ends a cancellation counted by ``begin()``, waking the waiters when it was the last.
    func end() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no cancellation is in flight, or when the calling task is cancelled.
    func waitUntilNonePending() async {
        let id = state.withLockedValue { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state -> Bool in
                    if state.pending == 0 || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
