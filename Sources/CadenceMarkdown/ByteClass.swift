/// Byte and Unicode scalar classes used by the parsers, which work on UTF-8 bytes.
enum ByteClass {
    static func isSpaceOrTab(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// Space, tab, line feed, line tabulation, form feed, carriage return.
    static func isASCIIWhitespace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }

    static func isASCIIPunctuation(_ c: UInt8) -> Bool {
        (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E)
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    static func isAlphanumeric(_ c: UInt8) -> Bool { isDigit(c) || isLetter(c) }
    static func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) }

    /// Unicode whitespace: category Zs, tab, line feed, form feed, carriage return.
    static func isUnicodeWhitespace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
        case 0..<0x80: return false
        default: return s.properties.generalCategory == .spaceSeparator
        }
    }

    /// Unicode punctuation: categories P* and S* (CommonMark 0.31).
    static func isUnicodePunctuation(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return isASCIIPunctuation(UInt8(s.value)) }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default: return false
        }
    }

    /// The scalar that starts at `pos`, or `nil` at the end.
    static func scalar(in bytes: [UInt8], at pos: Int) -> Unicode.Scalar? {
        guard pos < bytes.count else { return nil }
        let b0 = bytes[pos]
        if b0 < 0x80 { return Unicode.Scalar(b0) }
        var length = 1
        if b0 >= 0xF0 { length = 4 } else if b0 >= 0xE0 { length = 3 } else if b0 >= 0xC0 { length = 2 }
        guard pos + length <= bytes.count else { return Unicode.Scalar(0xFFFD) }
        var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for i in 1..<length { value = (value << 6) | (UInt32(bytes[pos + i]) & 0x3F) }
        return Unicode.Scalar(value) ?? Unicode.Scalar(0xFFFD)
    }

    /// The scalar that ends just before `pos`, or `nil` at the start.
    static func scalar(in bytes: [UInt8], before pos: Int) -> Unicode.Scalar? {
        guard pos > 0 else { return nil }
        var start = pos - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 && pos - start < 4 { start -= 1 }
        return scalar(in: bytes, at: start)
    }

    /// Removes leading and trailing spaces, tabs and line endings.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = bytes.startIndex
        var hi = bytes.endIndex
        while lo < hi && isASCIIWhitespace(bytes[lo]) { lo += 1 }
        while hi > lo && isASCIIWhitespace(bytes[hi - 1]) { hi -= 1 }
        return bytes[lo..<hi]
    }

    /// Removes leading spaces, tabs and line endings.
    static func trimmedStart(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = bytes.startIndex
        while lo < bytes.endIndex && isASCIIWhitespace(bytes[lo]) { lo += 1 }
        return bytes[lo...]
    }

    static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { isASCIIWhitespace($0) }
    }

    static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
