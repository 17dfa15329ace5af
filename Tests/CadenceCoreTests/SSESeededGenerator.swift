import CadenceCore

/// A small seeded random generator (SplitMix64), so generated streams are reproducible.
struct SSESeededGenerator: RandomNumberGenerator {
    var random: SplitMix64

    init(state: UInt64) {
        random = SplitMix64(seed: state)
    }

    mutating func next() -> UInt64 {
        random.next()
    }

    /// A random event stream made of the pieces the algorithm treats specially.
    mutating func stream(lines: Int) -> [UInt8] {
        let names = ["data", "data", "data", "event", "id", "retry", "", "dat", "DATA", "data ", "x"]
        let values: [[UInt8]] = [
            Array("x".utf8), Array("hello".utf8), Array("€".utf8), Array("😀".utf8), [0], Array(" ".utf8),
            Array(":".utf8), Array("42".utf8), Array("\u{FEFF}".utf8), [0xFF], [0xE2, 0x82], Array("007".utf8),
            Array(String(repeating: "long", count: 25).utf8),  // past the inline search for line endings
        ]
        let endings: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A]]
        var bytes: [UInt8] = Bool.random(using: &self) ? [0xEF, 0xBB, 0xBF] : []
        for _ in 0..<lines {
            if Int.random(in: 0..<4, using: &self) == 0 {
                bytes += endings.randomElement(using: &self)!  // a blank line
                continue
            }
            bytes += names.randomElement(using: &self)!.utf8
            if Int.random(in: 0..<8, using: &self) != 0 { bytes.append(0x3A) }
            if Bool.random(using: &self) { bytes.append(0x20) }
            for _ in 0..<Int.random(in: 0..<4, using: &self) { bytes += values.randomElement(using: &self)! }
            bytes += endings.randomElement(using: &self)!
        }
        return bytes
    }
}
