import NIOConcurrencyHelpers

/// `body` ran past its deadline and was cancelled.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public var what: String
    public var timeout: Duration
    public var description: String { "\(what) did not happen within \(timeout)" }
}

/// Runs `body`, throwing ``DeadlineExceeded`` if it is not done within `timeout`: no wait in a test
/// may hang the run. The clock here is a bound, never the thing waited for.
///
/// It returns at the deadline even if `body` ignores its cancellation (a task group would wait for
/// it), so a stuck wait fails its test instead of holding the run.
@discardableResult
public func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    let work = Task {
        do { outcome.settle(.success(try await body())) } catch { outcome.settle(.failure(error)) }
    }
    let timer = Task {
        try? await Task.sleep(for: timeout)
        outcome.settle(.failure(DeadlineExceeded(what: what, timeout: timeout)))
    }
    let result = await outcome.value()
    work.cancel()
    timer.cancel()
    return try result.get()
}

/// The first of several results to arrive; later ones are ignored.
private final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<Result<T, any Error>, Never>?
    }

    private let state = NIOLockedValueBox(State())

    func settle(_ result: Result<T, any Error>) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Result<T, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    func value() async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> Result<T, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
