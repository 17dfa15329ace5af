/// Tracks how text arrives: how long the gaps between chunks usually are, and the silence since
/// the last one.
///
/// All times are milliseconds on the pacer's clock. O(1) per arrival and per query.
struct ArrivalEstimator: Sendable {
    private(set) var lastArrival: Double?
    /// Smoothed gap between arrivals and its smoothed mean deviation (ms), as TCP estimates a
    /// round-trip time (RFC 6298): nil before the second chunk.
    private(set) var meanGap: Double?
    private(set) var gapDeviation = 0.0

    /// RFC 6298's gains: 1/8 for the mean, 1/4 for the deviation.
    private static let alpha = 0.125
    private static let beta = 0.25

    mutating func record(scalars: Int, at time: Double) {
        guard scalars > 0 else { return }
        // Chunks stamped with the same time are one burst: no gap between them.
        if let lastArrival, time > lastArrival {
            let gap = time - lastArrival
            if let mean = meanGap {
                gapDeviation += Self.beta * (abs(gap - mean) - gapDeviation)
                meanGap = mean + Self.alpha * (gap - mean)
            } else {
                // RFC 6298 starts the deviation at half the first sample; a quarter keeps the first
                // chunks of a steady big-chunk provider (150 scalars every 125 ms) within 160 ms
                // instead of 200 at the 95th percentile, while a bursty proxy still reaches the budget
                // within a few gaps.
                meanGap = gap
                gapDeviation = gap / 4
            }
        }
        lastArrival = max(lastArrival ?? time, time)
    }

    /// The gap a buffer must last to bridge the stream's usual gaps: the mean gap plus
    /// `deviations` mean deviations (nil before the second chunk).
    func usualGap(deviations: Double) -> Double? {
        meanGap.map { $0 + deviations * gapDeviation }
    }

    /// Milliseconds since the last arrival (0 before any).
    func idle(at now: Double) -> Double {
        guard let lastArrival else { return 0 }
        return max(0, now - lastArrival)
    }
}
