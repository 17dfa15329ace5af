/// Percentiles of a set of samples (nearest rank).
struct Percentiles {
    private let sorted: [Int64]

    init(_ samples: [Int64]) { sorted = samples.sorted() }

    var count: Int { sorted.count }

    /// The sample at `fraction` (0...1) of the way, in milliseconds; NaN without samples.
    func milliseconds(at fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return Double(sorted[rank]) / 1e6
    }
}
