/// Percentiles of a set of samples (nearest rank).
package struct Percentiles {
    private let sorted: [Int64]

    package init(_ samples: [Int64]) { sorted = samples.sorted() }

    package var count: Int { sorted.count }

    /// The sample at `fraction` (0...1) of the way, in milliseconds; NaN without samples.
    package func milliseconds(at fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return Double(sorted[rank]) / 1e6
    }
}
