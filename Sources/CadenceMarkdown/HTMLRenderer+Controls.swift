/// Control characters in the HTML the renderer writes.
///
/// HTML allows no control character in a page but ASCII whitespace (tab, line feed, form feed,
/// carriage return): C0 controls, DEL and C1 controls are parse errors, and a page that carries one
/// to a terminal (`cadence render --to html` printed ESC sequences as they came) acts on the
/// terminal. The writer replaces each one, wherever it came from (text, code, raw HTML, a URL),
/// by U+FFFD, as the markdown parser does for NUL.
extension HTMLRenderer {
    /// The offset of the first byte in `bytes` that starts a control character HTML forbids.
    static func firstForbiddenControl(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while i < bytes.count {
            if i + 8 <= bytes.count {
                let word = ByteWord(base, i)
                if !(word.holdsByte(below: 0x20) || word.holds(0x7F) || word.holds(0xC2)) {
                    i += 8
                    continue
                }
            }
            let end = min(i + 8, bytes.count)
            while i < end {
                if forbiddenControlLength(bytes, at: i) > 0 { return i }
                i += 1
            }
        }
        return nil
    }

    /// `bytes` as a string with every forbidden control character from `start` on replaced by U+FFFD.
    static func replacingForbiddenControls(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        var out = Array(bytes[..<start])
        out.reserveCapacity(bytes.count + 16)
        var i = start
        while i < bytes.count {
            let length = forbiddenControlLength(bytes, at: i)
            if length > 0 {
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                i += length
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// How many bytes the forbidden control character at `i` takes: 1 for C0 and DEL, 2 for C1
    /// (0xC2 0x80–0x9F); 0 when there is none there.
    private static func forbiddenControlLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        switch bytes[i] {
        case 0x09, 0x0A, 0x0C, 0x0D: 0
        case 0x00..<0x20, 0x7F: 1
        case 0xC2 where i + 1 < bytes.count && (0x80..<0xA0).contains(bytes[i + 1]): 2
        default: 0
        }
    }
}
