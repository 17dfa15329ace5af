#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

extension UnsafePointer<UInt8> {
    /// The offset of the first `byte` in `self[from..<to]`, or `to` when there is none.
    ///
    /// Uses the C library's `memchr`, which scans many bytes per instruction, where available.
    @inline(__always)
    func firstOffset(of byte: UInt8, from: Int, to: Int) -> Int {
        guard from < to else { return to }
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
        guard let found = memchr(self + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(self).distance(to: UnsafeRawPointer(found))
        #else
        var offset = from
        while offset < to {
            if self[offset] == byte { return offset }
            offset += 1
        }
        return to
        #endif
    }

    /// The offset of the first LF in `self[from..<to]`, looking at no more than about `limit`
    /// bytes: `min(from + limit, to)` or a little more (whole words) when there is none.
    ///
    /// Short lines are the common case, and reading eight bytes at a time inline beats a call
    /// to `memchr` on them.
    @inline(__always)
    func firstLineFeed(from: Int, to: Int, limit: Int) -> Int {
        let raw = UnsafeRawPointer(self)
        var offset = from
        let stop = Swift.min(to, from + limit)
        while offset + 16 <= to {
            let first = Self.lineFeeds(raw, offset)
            let second = Self.lineFeeds(raw, offset + 8)
            if first | second != 0 {
                return first != 0
                    ? offset + first.trailingZeroBitCount &>> 3 : offset + 8 + second.trailingZeroBitCount &>> 3
            }
            offset += 16
            if offset >= stop { return offset }
        }
        if offset + 8 <= to {
            let found = Self.lineFeeds(raw, offset)
            if found != 0 { return offset + found.trailingZeroBitCount &>> 3 }
            offset += 8
        }
        while offset < to {
            if self[offset] == 0x0A { return offset }
            offset += 1
        }
        return to
    }

    /// Marks the LF bytes among the eight at `raw + offset` (only the lowest mark is exact).
    @inline(__always)
    private static func lineFeeds(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        zeroBytes(
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A)
    }

    /// Marks with 0x80 the zero bytes of `word`. Bytes above the lowest zero byte may be marked
    /// falsely, so only the lowest mark is meaningful.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
}
