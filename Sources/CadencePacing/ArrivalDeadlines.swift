/// The arrival time of every chunk the adaptive head has not passed yet, for the latency
/// budget: a chunk that arrived at `t` is due on screen at `t + budget`.
///
/// Amortised O(1) per chunk: entries the head has passed are dropped from the front.
struct ArrivalDeadlines: Sendable {
    private var ends: [Int] = []
    private var times: [Double] = []
    private var start = 0

    /// The text up to scalar offset `end` (exclusive) had arrived by `time`.
    mutating func record(end: Int, at time: Double) {
        if start < ends.count, ends.last == end { return }
        ends.append(end)
        times.append(time)
    }

    /// The furthest end, no further than `limit`, of the chunks whose budget has run out at
    /// `now`; `head` if none has.
    mutating func due(at now: Double, budget: Double, head: Double, limit: Int) -> Double {
        while start < ends.count, Double(ends[start]) <= head {
            start += 1
        }
        if start > 64, start * 2 > ends.count {
            ends.removeFirst(start)
            times.removeFirst(start)
            start = 0
        }
        var due = head
        var index = start
        while index < ends.count, times[index] + budget <= now {
            due = max(due, Double(min(ends[index], limit)))
            index += 1
        }
        return due
    }
}
