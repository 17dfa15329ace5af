/// Backslash escapes, entities, label and URL normalization.
enum TextEscapes {
    /// The entity table, parsed on first use.
    static let entities: [String: [UInt8]] = {
        var table: [String: [UInt8]] = [:]
        table.reserveCapacity(2200)
        for line in htmlEntityTable.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            var scalars = String.UnicodeScalarView()
            for hex in line[line.index(after: space)...].split(separator: ",") {
                if let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) { scalars.append(s) }
            }
            table[String(line[..<space])] = Array(String(scalars).utf8)
        }
        return table
    }()

    /// Parses an entity at `pos` (which holds `&`); returns the decoded bytes and the position after `;`.
    static func entity(in bytes: [UInt8], at pos: Int) -> (decoded: [UInt8], end: Int)? {
        var i = pos + 1
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            var value: UInt32 = 0
            var digits = 0
            if i < bytes.count && (bytes[i] | 0x20) == UInt8(ascii: "x") {
                i += 1
                while i < bytes.count, ByteClass.isHexDigit(bytes[i]), digits < 7 {
                    value = value * 16 + UInt32(hexValue(bytes[i]))
                    digits += 1
                    i += 1
                }
                guard digits >= 1 && digits <= 6 else { return nil }
            } else {
                while i < bytes.count, ByteClass.isDigit(bytes[i]), digits < 8 {
                    value = value * 10 + UInt32(bytes[i] - 0x30)
                    digits += 1
                    i += 1
                }
                guard digits >= 1 && digits <= 7 else { return nil }
            }
            guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else { return nil }
            let scalar = (value == 0 ? nil : Unicode.Scalar(value)) ?? Unicode.Scalar(0xFFFD)!
            return (Array(String(Character(scalar)).utf8), i + 1)
        }
        let start = i
        while i < bytes.count, ByteClass.isAlphanumeric(bytes[i]), i - start < 32 { i += 1 }
        guard i > start, i < bytes.count, bytes[i] == UInt8(ascii: ";") else { return nil }
        guard let decoded = entities[ByteClass.string(bytes[start..<i])] else { return nil }
        return (decoded, i + 1)
    }

    static func hexValue(_ c: UInt8) -> UInt8 {
        ByteClass.isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10
    }

    /// Resolves backslash escapes and entities.
    static func unescape(_ slice: ArraySlice<UInt8>) -> [UInt8] {
        guard slice.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "&") }) else {
            return Array(slice)
        }
        let bytes = Array(slice)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\"), i + 1 < bytes.count, ByteClass.isASCIIPunctuation(bytes[i + 1]) {
                out.append(bytes[i + 1])
                i += 2
            } else if c == UInt8(ascii: "&"), let (decoded, end) = entity(in: bytes, at: i) {
                out += decoded
                i = end
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    /// Label matching: trim, collapse internal whitespace, Unicode case fold.
    static func normalizeLabel(_ slice: ArraySlice<UInt8>) -> String {
        let trimmed = ByteClass.trimmed(slice)
        if trimmed.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every citation `[1]` a paragraph looks up): collapse and case-fold in one
            // pass, as `lowercased().uppercased()` does to ASCII, into the string itself.
            return String(unsafeUninitializedCapacity: trimmed.count) { buffer in
                var count = 0
                var pendingSpace = false
                for c in trimmed {
                    if ByteClass.isASCIIWhitespace(c) {
                        pendingSpace = true
                        continue
                    }
                    if pendingSpace {
                        buffer[count] = 0x20
                        count += 1
                        pendingSpace = false
                    }
                    buffer[count] = c >= 0x61 && c <= 0x7A ? c - 0x20 : c
                    count += 1
                }
                return count
            }
        }
        var collapsed: [UInt8] = []
        var pendingSpace = false
        for c in ByteClass.trimmed(slice) {
            if ByteClass.isASCIIWhitespace(c) {
                pendingSpace = true
            } else {
                if pendingSpace { collapsed.append(0x20) }
                pendingSpace = false
                collapsed.append(c)
            }
        }
        return ByteClass.string(collapsed).lowercased().uppercased()
    }

    /// Percent-encodes a URL as cmark does, keeping existing `%XX` escapes.
    static func normalizeURL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "%"), i + 2 < bytes.count, ByteClass.isHexDigit(bytes[i + 1]),
                ByteClass.isHexDigit(bytes[i + 2])
            {
                out.append(c)
            } else if c < 0x80 && isURLSafe(c) {
                out.append(c)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(c >> 4)])
                out.append(hex[Int(c & 0x0F)])
            }
            i += 1
        }
        return ByteClass.string(out)
    }

    private static func isURLSafe(_ c: UInt8) -> Bool {
        if ByteClass.isAlphanumeric(c) { return true }
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "!"),
            UInt8(ascii: "*"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","),
            UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: ";"),
            UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "&"), UInt8(ascii: "$"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }
}
