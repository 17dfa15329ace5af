import NIOConcurrencyHelpers
import NIOCore

/// The steps of one answer on the Hummingbird floor (``HummingbirdFloor``), kept in order for its
/// readers: each reader's response loop reads the steps after its own cursor, and waits when it has
/// read them all (one continuation per waiting reader, resumed by the next step).
final class FloorBroadcast: Sendable {
    private struct State {
        var steps: [ByteBuffer] = []
        var ended = false
        var waiters: [CheckedContinuation<Void, Never>] = []

        func hasNews(after count: Int) -> Bool { steps.count > count || ended }
    }

    private let state = NIOLockedValueBox(State())

    /// Adds a step, the last one if `isLast`, and wakes every waiting reader.
    func append(_ step: ByteBuffer, isLast: Bool) {
        let waiters = state.withLockedValue { state in
            state.steps.append(step)
            state.ended = isLast
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The steps after the first `count`, as one buffer, waiting until there is one; nil once the
    /// answer has ended and every step was read.
    func steps(after count: Int) async -> (buffer: ByteBuffer, count: Int)? {
        while true {
            let ready = state.withLockedValue { state in state.hasNews(after: count) ? state.steps[count...] : nil }
            if let ready {
                guard let first = ready.first else { return nil }
                guard ready.count > 1 else { return (first, 1) }
                var buffer = ByteBuffer()
                for var step in ready { buffer.writeBuffer(&step) }
                return (buffer, ready.count)
            }
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state in
                    if state.hasNews(after: count) { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }
}
