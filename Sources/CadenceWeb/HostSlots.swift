import NIOConcurrencyHelpers

/// A few connections per host: at most `limit` fetches from one host at a time, the others waiting
/// their turn in order. (Each fetch connects to the address it checked, through a client of its
/// own, so AsyncHTTPClient's per-host pool limit cannot apply across fetches; this does.)
///
/// ```swift
/// let slots = HostSlots(limit: 2)
/// try await slots.acquire("example.org")
/// defer { slots.release("example.org") }
/// ```
final class HostSlots: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var busy: [String: Int] = [:]
        var waiters: [String: [Waiter]] = [:]
        var nextID = 0
        var cancelled: Set<Int> = []
    }

    let limit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a turn at `host`; throws `CancellationError` if the task is cancelled first.
    func acquire(_ host: String) async throws {
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLockedValue { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if state.busy[host, default: 0] < limit {
                        state.busy[host, default: 0] += 1
                        return .success(())
                    }
                    state.waiters[host, default: []].append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> Waiter? in
                guard let index = state.waiters[host]?.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)  // not queued yet (or already granted: then unused)
                    return nil
                }
                return state.waiters[host]!.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        state.withLockedValue { _ = $0.cancelled.remove(id) }
    }

    /// Ends a turn at `host`, handing it to the next waiter.
    func release(_ host: String) {
        let next = state.withLockedValue { state -> Waiter? in
            if var queue = state.waiters[host], !queue.isEmpty {
                let next = queue.removeFirst()
                state.waiters[host] = queue.isEmpty ? nil : queue
                return next  // the turn passes on; `busy` stays
            }
            state.busy[host, default: 1] -= 1
            if state.busy[host] == 0 { state.busy[host] = nil }
            return nil
        }
        next?.continuation.resume()
    }

    /// The fetches holding a turn at `host` now.
    func busy(_ host: String) -> Int {
        state.withLockedValue { $0.busy[host] ?? 0 }
    }
}
