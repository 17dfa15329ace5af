/// Checks UTF-8 in bulk: eight or sixteen bytes at a time through ASCII, and a tight loop over each
/// run of multi-byte characters, so that text with an accent every few words is checked at nearly
/// the speed of ASCII (the standard library's validation goes one scalar at a time once it has seen
/// a non-ASCII byte).
///
/// Well-formed means exactly what the Unicode standard's table 3-7 says, as the standard library
/// means it: no overlong forms, no surrogates (U+D800…U+DFFF), nothing past U+10FFFF, no lone or
/// missing continuation bytes, no sequence cut by the end of the buffer.
///
/// ```swift
/// Array("déjà vu".utf8).withUnsafeBufferPointer { UTF8Validation.check($0) }  // .valid
/// [0xED, 0xA0, 0x80].withUnsafeBufferPointer { UTF8Validation.check($0) }    // .invalid (a surrogate)
/// ```
enum UTF8Validation: Equatable {
    /// Only ASCII bytes (the empty buffer too).
    case ascii
    /// Well-formed UTF-8 with at least one multi-byte character.
    case valid
    /// Not well-formed somewhere.
    case invalid

    /// Whether `bytes` is well-formed UTF-8, and whether it is ASCII.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> UTF8Validation {
        guard let base = bytes.baseAddress else { return .ascii }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var offset = 0
        var sawMultiByte = false
        while offset < count {
            // Through ASCII, sixteen bytes at a time, then to the first non-ASCII byte.
            while offset + 16 <= count {
                let pair =
                    raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                if pair & highBits != 0 { break }
                offset += 16
            }
            if offset + 8 <= count {
                let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) & highBits
                if high == 0 {
                    offset += 8
                    continue
                }
                offset += high.trailingZeroBitCount &>> 3
            } else {
                while offset < count && base[offset] < 0x80 { offset += 1 }
                if offset == count { break }
            }
            // A run of multi-byte characters, up to the next ASCII byte.
            sawMultiByte = true
            repeat {
                let length = sequenceLength(base, at: offset, count: count)
                if length == 0 { return .invalid }
                offset += length
            } while offset < count && base[offset] >= 0x80
        }
        return sawMultiByte ? .valid : .ascii
    }

    /// The high bit of each of eight bytes.
    private static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The length of the well-formed sequence starting with the non-ASCII byte at `offset`, or 0.
    @inline(__always)
    private static func sequenceLength(_ bytes: UnsafePointer<UInt8>, at offset: Int, count: Int) -> Int {
        let lead = bytes[offset]
        if lead < 0xE0 {
            // C2…DF and one continuation byte; 80…C1 lead nothing (C0 and C1 would be overlong).
            guard lead >= 0xC2, offset + 1 < count, isContinuation(bytes[offset + 1]) else { return 0 }
            return 2
        }
        if lead < 0xF0 {
            // E0 needs A0…BF next (else overlong), ED needs 80…9F (else a surrogate).
            guard offset + 2 < count else { return 0 }
            let second = bytes[offset + 1]
            let lowest: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let highest: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard second >= lowest, second <= highest, isContinuation(bytes[offset + 2]) else { return 0 }
            return 3
        }
        // F0 needs 90…BF next (else overlong), F4 needs 80…8F (else past U+10FFFF); F5…FF lead nothing.
        guard lead <= 0xF4, offset + 3 < count else { return 0 }
        let second = bytes[offset + 1]
        let lowest: UInt8 = lead == 0xF0 ? 0x90 : 0x80
        let highest: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
        guard second >= lowest, second <= highest, isContinuation(bytes[offset + 2]), isContinuation(bytes[offset + 3])
        else { return 0 }
        return 4
    }

    @inline(__always)
    private static func isContinuation(_ byte: UInt8) -> Bool {
        byte & 0xC0 == 0x80
    }
}
