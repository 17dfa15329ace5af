import NIOConcurrencyHelpers

/// Counts the answers this node is producing, in all and for each subject, and refuses a new one
/// past the node's limit (`cadence serve --max-answers N`) with `503` and `Retry-After`, so a busy
/// node sheds load early and clients (or the load balancer) try again, or past the subject's limit
/// (`--max-answers-per-user N`) with `429` and `Retry-After`, so one person cannot take every place.
final class AnswerAdmission: Sendable {
    private struct Counts {
        var running = 0
        var bySubject: [String: Int] = [:]
    }

    let limit: Int?
    let perSubjectLimit: Int?
    /// What `Retry-After` tells a refused client, in seconds.
    let retryAfterSeconds: Int
    private let counts = NIOLockedValueBox(Counts())

    init(limit: Int?, perSubjectLimit: Int? = nil, retryAfterSeconds: Int = 1) {
        self.limit = limit
        self.perSubjectLimit = perSubjectLimit
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The answers being produced now.
    var count: Int { counts.withLockedValue { $0.running } }

    /// Takes a place for one more answer of `subject`, or throws a 503 or 429 that says why.
    func admit(_ subject: String) throws {
        let refusal = counts.withLockedValue { counts -> APIError? in
            if let limit, counts.running >= limit {
                return APIError(
                    status: .serviceUnavailable, code: "server_busy",
                    message: "this server is producing its limit of \(limit) answers; try again shortly",
                    headers: [.retryAfter: String(retryAfterSeconds)])
            }
            if let perSubjectLimit, counts.bySubject[subject, default: 0] >= perSubjectLimit {
                return APIError(
                    status: .tooManyRequests, code: "too_many_answers",
                    message: "you have \(perSubjectLimit) answers in production, the most at once; "
                        + "try again when one ends",
                    headers: [.retryAfter: String(retryAfterSeconds)])
            }
            counts.running += 1
            counts.bySubject[subject, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Gives back the place of an answer of `subject` that ended.
    func release(_ subject: String) {
        counts.withLockedValue { counts in
            counts.running = max(0, counts.running - 1)
            let left = counts.bySubject[subject, default: 0] - 1
            counts.bySubject[subject] = left > 0 ? left : nil
        }
    }
}
