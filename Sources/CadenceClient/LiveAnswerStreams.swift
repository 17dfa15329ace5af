import NIOConcurrencyHelpers

/// The answer streams of this process whose drivers have not ended: a stream counts from its start
/// until its driver returns, which for a stream whose reader left is after it has asked the server
/// to cancel the answer (`DELETE /v1/answers/{id}`, ``AnswerStream/cancelsOnServer``).
///
/// A server keeps producing an answer whose reader merely disconnected (it can be resumed), so a
/// process that exits before that request is sent, such as `cadence ask` after Ctrl-C, leaves the
/// model writing what nobody reads. ``AnswerStream/waitUntilAllEnded()`` waits for them. Counting
/// from the start (rather than from the reader leaving) leaves no moment where a stream being
/// cancelled is not counted yet.
final class LiveAnswerStreams: Sendable {
    static let shared = LiveAnswerStreams()

    private struct State {
        var pending = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Counts one stream, until ``end()``.
    func begin() {
        state.withLockedValue { $0.pending += 1 }
    }

    /// Ends a stream counted by ``begin()``, waking the waiters when it was the last.
    func end() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no stream is live, or when the calling task is cancelled.
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
