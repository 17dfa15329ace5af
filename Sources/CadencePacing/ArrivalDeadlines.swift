/// The arrival time of every chunk the adaptive head has not passed yet: a chunk that arrived at
/// `t` is due on screen at `t + lag`.
///
/// Amortised O(1) per chunk to keep; a query costs O(chunks the head has not passed), which is
/// the chunks that arrived within the lag. Chunks stamped with the same time share one entry.
struct ArrivalDeadlines: Sendable {
    private var ends: [Int] = []
    private var times: [Double] = []
    private var start = 0

    /// How many arrival times are held (passed ones included, until they are compacted away).
    var count: Int { ends.count }

    /// The text up to scalar offset `end` (exclusive) had arrived by `time`.
    mutating func record(end: Int, at time: Double) {
        if start < ends.count, let last = times.last, last == time {
            ends[ends.count - 1] = end  // the same instant: one chunk, one deadline
            return
        }
        ends.append(end)
        times.append(time)
    }

    /// Where a head that was at `head` at time `origin` must be at `now` to move at the slowest
    /// steady rate that meets every due time: each chunk's end (no further than `limit`) reached by
    /// its arrival plus `lag`, and a chunk already due at `now` reached by `now`. This follows the
    /// tightest line under every deadline: a burst is spread evenly over the lag, and what is
    /// buffered when the network goes quiet lasts until the last chunk's due time.
    mutating func spreadHead(since origin: Double, to now: Double, lag: Double, head: Double, limit: Int) -> Double {
        while start < ends.count, Double(ends[start]) <= head {
            start += 1
        }
        if start > 64, start * 2 > ends.count {
            ends.removeFirst(start)
            times.removeFirst(start)
            start = 0
        }
        var target = head
        var index = start
        while index < ends.count {
            let end = Double(min(ends[index], limit))
            if end > target {
                let span = max(times[index] + lag, now) - origin
                target = span > 0 ? max(target, head + (end - head) * (now - origin) / span) : end
            }
            index += 1
        }
        return target
    }
}
