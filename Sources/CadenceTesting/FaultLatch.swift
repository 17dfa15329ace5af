import NIOConcurrencyHelpers

/// A one-way signal: ``wait()`` suspends until ``open()`` is called (forever after that, it returns
/// at once).
///
/// ```swift
/// let latch = FaultLatch()
/// Task { await latch.wait(); print("opened") }
/// latch.open()
/// ```
public final class FaultLatch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Whether ``open()`` was called.
    public var isOpen: Bool { state.withLockedValue { $0.isOpen } }

    /// Opens the latch and wakes every waiter.
    public func open() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLockedValue { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

/// Controls one stall of a ``FaultServer`` response: the test learns when the server has reached it
/// and decides when it ends, so no test depends on wall-clock time.
///
/// ```swift
/// let gate = FaultGate()
/// server.enqueue(.stall(afterBytes: 200, gate: gate))
/// // … start reading …
/// await gate.reached.wait()
/// gate.release()
/// ```
public final class FaultGate: Sendable {
    /// Opened by the server when the response reaches the stall.
    public let reached = FaultLatch()
    /// Opened by ``release()``; the response goes on.
    public let released = FaultLatch()

    public init() {}

    /// Lets the stalled response go on.
    public func release() { released.open() }
}
