import NIOConcurrencyHelpers

/// Counts the answers this node is producing and refuses a new one past the limit
/// (`cadence serve --max-answers N`) with `503` and `Retry-After`, so a busy node sheds load early
/// and clients (or the load balancer) try again.
final class AnswerAdmission: Sendable {
    let limit: Int?
    /// What `Retry-After` tells a refused client, in seconds.
    let retryAfterSeconds: Int
    private let running = NIOLockedValueBox(0)

    init(limit: Int?, retryAfterSeconds: Int = 1) {
        self.limit = limit
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The answers being produced now.
    var count: Int { running.withLockedValue { $0 } }

    /// Takes a place for one more answer, or throws a 503 that says why.
    func admit() throws {
        let admitted = running.withLockedValue { count -> Bool in
            if let limit, count >= limit { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw APIError(
                status: .serviceUnavailable, code: "server_busy",
                message: "this server is producing its limit of \(limit ?? 0) answers; try again shortly",
                headers: [.retryAfter: String(retryAfterSeconds)])
        }
    }

    /// Gives back the place of an answer that ended.
    func release() {
        running.withLockedValue { $0 = max(0, $0 - 1) }
    }
}
