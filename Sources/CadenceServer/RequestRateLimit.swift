/// Requests per minute per subject (`cadence serve --rate-limit N`), as a token bucket for each
/// subject: a bucket holds up to N requests and refills at N per minute, so a subject may burst N
/// requests and then goes at the steady rate. A value type that decides and reads no clock: its
/// owner (``SubjectRateLimiter``) passes the time, as a duration since any fixed start.
///
/// ```swift
/// var limit = RequestRateLimit(perMinute: 2)
/// limit.request(from: "ada", at: .zero)        // .allow
/// limit.request(from: "ada", at: .zero)        // .allow
/// limit.request(from: "ada", at: .zero)        // .refuse(retryAfterSeconds: 30)
/// limit.request(from: "ada", at: .seconds(30)) // .allow: half a minute refilled one
/// ```
struct RequestRateLimit: Sendable {
    enum Decision: Equatable {
        case allow
        /// Refused; a request is allowed again after this many whole seconds.
        case refuse(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Duration
    }

    let perMinute: Int
    private var buckets: [String: Bucket] = [:]
    /// The count of buckets at which full ones are dropped: buckets stay bounded by the subjects
    /// active within the last minute, and the sweeps cost amortized constant time per request.
    private var sweepAt = 1_024

    init(perMinute: Int) {
        self.perMinute = max(1, perMinute)
    }

    /// The buckets kept (for tests of the bound).
    var subjectsTracked: Int { buckets.count }

    /// Takes one request from `subject`'s bucket at time `now`.
    mutating func request(from subject: String, at now: Duration) -> Decision {
        if buckets.count >= sweepAt { sweep(at: now) }
        var bucket = refilled(buckets[subject] ?? Bucket(tokens: Double(perMinute), updated: now), at: now)
        defer { buckets[subject] = bucket }
        guard bucket.tokens >= 1 else {
            // Less a nanosecond, so that a float's rounding never adds a whole second.
            let seconds = (1 - bucket.tokens) / perSecond - 1e-9
            return .refuse(retryAfterSeconds: max(1, Int(seconds.rounded(.up))))
        }
        bucket.tokens -= 1
        return .allow
    }

    private var perSecond: Double { Double(perMinute) / 60 }

    private func refilled(_ bucket: Bucket, at now: Duration) -> Bucket {
        guard now > bucket.updated else { return bucket }
        let seconds = (now - bucket.updated).seconds
        return Bucket(tokens: min(Double(perMinute), bucket.tokens + seconds * perSecond), updated: now)
    }

    /// Drops the buckets that are full by `now`: a subject with a full bucket is as if never seen.
    private mutating func sweep(at now: Duration) {
        buckets = buckets.filter { refilled($0.value, at: now).tokens < Double(perMinute) }
        sweepAt = max(1_024, buckets.count * 2)
    }
}
