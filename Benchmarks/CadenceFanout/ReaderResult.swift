/// What one reader saw of its answer.
struct ReaderResult: Sendable {
    /// Arrival minus production of every token, in nanoseconds, in arrival order.
    var latencies: [Int64] = []
    /// Token events received.
    var tokens = 0
    /// Events whose sequence number skipped ahead of the previous one: the events in between never came.
    var missing = 0
    /// Events whose sequence number was not above the previous one.
    var duplicates = 0
    /// Whether the answer's `complete` event arrived.
    var completed = false
    /// `CLOCK_MONOTONIC` at the first event and at `complete`, in nanoseconds (0 if none).
    var firstArrival: Int64 = 0
    var completeArrival: Int64 = 0
    /// Why the stream ended early, if it did.
    var failure: String?
}
