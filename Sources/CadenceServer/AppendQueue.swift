import NIOConcurrencyHelpers

/// Events on their way from an engine to the events table. The engine pushes one at a time; the
/// writer takes all that are waiting at once, so a fast engine's events go in few statements.
final class AppendQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    init() {}

    /// Adds an element; returns `false` (dropping it) once the queue is closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            state.items.append(element)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        return state.withLockedValue { !$0.closed }
    }

    /// No more elements: the reader gets what is left, then `nil`.
    func close() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Up to `limit` waiting elements, oldest first, waiting for one if there are none; `nil` when
    /// the queue is closed and empty, or the task is cancelled. One reader at a time.
    func next(limit: Int = 512) async -> [Element]? {
        while true {
            let taken = state.withLockedValue { state -> [Element]? in
                guard !state.items.isEmpty else { return nil }
                let count = min(limit, state.items.count)
                let batch = Array(state.items.prefix(count))
                state.items.removeFirst(count)
                return batch
            }
            if let taken { return taken }
            if state.withLockedValue({ $0.closed }) || Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLockedValue { state -> Bool in
                        if !state.items.isEmpty || state.closed || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }
}
