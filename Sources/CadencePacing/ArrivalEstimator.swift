/// Tracks how text arrives: the recent arrival rate and the typical gap between chunks.
///
/// All times are milliseconds on the pacer's clock. Work per arrival and per query is
/// amortised O(1): arrivals older than the window are dropped from the front of a queue.
struct ArrivalEstimator: Sendable {
    /// Length of the rate window, in milliseconds.
    let window: Double
    /// The rate assumed before any text arrived, in scalars per second.
    let priorRate: Double
    /// How much the prior weighs, in milliseconds of observation.
    let priorWeight: Double

    private var times: [Double] = []
    private var counts: [Int] = []
    private var start = 0
    private var windowCount = 0
    private(set) var firstArrival: Double?
    private(set) var lastArrival: Double?
    /// Smoothed gap between arrivals (ms): rises fast (weight 0.5), decays slowly (0.1),
    /// so the pacer keeps the buffer a burst needs for a while after the burst.
    private(set) var typicalGap: Double?

    init(window: Double, priorRate: Double, priorWeight: Double) {
        self.window = window
        self.priorRate = priorRate
        self.priorWeight = priorWeight
    }

    mutating func record(scalars: Int, at time: Double) {
        guard scalars > 0 else { return }
        // Chunks stamped with the same time are one burst: no gap between them.
        if let lastArrival, time > lastArrival {
            let gap = time - lastArrival
            if let typical = typicalGap {
                let weight = gap > typical ? 0.5 : 0.1
                typicalGap = typical + weight * (gap - typical)
            } else {
                typicalGap = gap
            }
        }
        if firstArrival == nil { firstArrival = time }
        lastArrival = max(lastArrival ?? time, time)
        times.append(time)
        counts.append(scalars)
        windowCount += scalars
    }

    /// Scalars per second over the window, blended with the prior rate.
    mutating func rate(at now: Double) -> Double {
        while start < times.count, times[start] <= now - window {
            windowCount -= counts[start]
            start += 1
        }
        if start > 64, start * 2 > times.count {
            times.removeFirst(start)
            counts.removeFirst(start)
            start = 0
        }
        guard let firstArrival else { return priorRate }
        let observed = min(window, max(0, now - firstArrival))
        return (Double(windowCount) * 1000 + priorRate * priorWeight) / (observed + priorWeight)
    }

    /// Milliseconds since the last arrival (0 before any).
    func idle(at now: Double) -> Double {
        guard let lastArrival else { return 0 }
        return max(0, now - lastArrival)
    }
}
