import CadenceClient

/// CadenceClient's `withDeadline(_:clock:waitingFor:_:)` on the real clock, for tests: no wait in
/// a test may hang the run. The clock here is a bound, never the thing waited for; a stuck wait
/// fails its test with `DeadlineExceeded` saying `what` did not happen.
@discardableResult
public func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await CadenceClient.withDeadline(timeout, clock: ContinuousClock(), waitingFor: what, body)
}
