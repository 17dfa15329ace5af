/// A small, fast, seeded random-number generator, so retry jitter, tests and the soak benchmark
/// are reproducible.
///
/// SplitMix64 (Steele, Lea and Flood, 2014) passes BigCrush; it is not for cryptography.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let jitter = Double.random(in: 0..<1, using: &random)   // the same every run
/// let machine = AnswerStreamMachine(configuration: .init(), random: SplitMix64(seed: 7))
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
