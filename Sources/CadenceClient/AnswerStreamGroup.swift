import NIOConcurrencyHelpers

/// Answer streams to wait for before a process exits: a stream made with a group counts from its
/// start until its driver returns, which for a stream whose reader left is after it has asked the
/// server to cancel the answer (`DELETE /v1/answers/{id}`, ``AnswerStream/cancelsOnServer``).
///
/// A server keeps producing an answer whose reader merely disconnected (it can be resumed), so a
/// process that exits before that request is sent, such as a command after Ctrl-C, leaves the model
/// writing what nobody reads. Counting from the start (rather than from the reader leaving) leaves
/// no moment where a stream being cancelled is not counted yet.
///
/// ```swift
/// let streams = AnswerStreamGroup()
/// for await update in AnswerStream(request: request, transport: transport, group: streams) { … }  // Ctrl-C ends it
/// await streams.waitUntilAllEnded()
/// exit(130)
/// ```
public final class AnswerStreamGroup: Sendable {
    public init() {}

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

    /// Returns once every answer stream of this group has ended, or when the calling task is
    /// cancelled. A stream whose reader left (a cancelled task, a loop left early) ends once it has
    /// asked its server to cancel the answer (the request gives up after 5 s); a stream still being
    /// read is waited for to its end.
    public func waitUntilAllEnded() async {
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
