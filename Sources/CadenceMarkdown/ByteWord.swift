/// Eight bytes read as one word, to skip past bytes that need no look (SWAR: SIMD within a register).
///
/// The tests say whether *any* byte of the word is the one asked for (or below a bound); which one
/// it is, the caller finds byte by byte in that word. Byte order does not matter for either.
struct ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    let bits: UInt64

    /// The eight bytes at `base + offset` (which need not be aligned).
    init(_ base: UnsafePointer<UInt8>, _ offset: Int) {
        bits = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    }

    /// Whether a byte of the word equals `byte`.
    func holds(_ byte: UInt8) -> Bool { Self.holdsZero(bits ^ (Self.ones &* UInt64(byte))) }

    /// Whether a byte of the word is below `bound` (at most 0x80).
    func holdsByte(below bound: UInt8) -> Bool { (bits &- Self.ones &* UInt64(bound)) & ~bits & (Self.ones &* 0x80) != 0 }

    private static func holdsZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & (ones &* 0x80) != 0 }
}
