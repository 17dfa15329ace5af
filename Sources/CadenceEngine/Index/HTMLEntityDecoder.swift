import CadenceMarkdown

/// Decodes HTML character references in text as browsers do: named ones from the HTML5 table
/// (with `;`, or without it for the legacy Latin-1 names such as `&amp` and `&nbsp`), decimal and
/// hex numeric ones (with or without `;`; the C1 range read as Windows-1252, zero, surrogates and
/// out-of-range values as U+FFFD), and anything else left as it was.
///
/// ```swift
/// var out: [UInt8] = []
/// var work = 0
/// HTMLEntityDecoder.decode(Array("&lt;b&gt; &amp &#x20AC; &#150;".utf8)[...], into: &out, work: &work)
/// String(decoding: out, as: UTF8.self)  // "<b> & € –"
/// ```
enum HTMLEntityDecoder {
    /// Names that browsers decode without a `;` (HTML's legacy references), all of at most 6 bytes.
    static let legacyNames: Set<String> = [
        "AElig", "AMP", "Aacute", "Acirc", "Agrave", "Aring", "Atilde", "Auml", "COPY", "Ccedil", "ETH", "Eacute",
        "Ecirc", "Egrave", "Euml", "GT", "Iacute", "Icirc", "Igrave", "Iuml", "LT", "Ntilde", "Oacute", "Ocirc",
        "Ograve", "Oslash", "Otilde", "Ouml", "QUOT", "REG", "THORN", "Uacute", "Ucirc", "Ugrave", "Uuml", "Yacute",
        "aacute", "acirc", "acute", "aelig", "agrave", "amp", "aring", "atilde", "auml", "brvbar", "ccedil", "cedil",
        "cent", "copy", "curren", "deg", "divide", "eacute", "ecirc", "egrave", "eth", "euml", "frac12", "frac14",
        "frac34", "gt", "iacute", "icirc", "iexcl", "igrave", "iquest", "iuml", "laquo", "lt", "macr", "micro",
        "middot", "nbsp", "not", "ntilde", "oacute", "ocirc", "ograve", "ordf", "ordm", "oslash", "otilde", "ouml",
        "para", "plusmn", "pound", "quot", "raquo", "reg", "sect", "shy", "sup1", "sup2", "sup3", "szlig", "thorn",
        "times", "uacute", "ucirc", "ugrave", "uml", "uuml", "yacute", "yen", "yuml",
    ]

    /// What Windows-1252 puts at 0x80–0x9F, which a numeric reference to those code points means.
    static let windows1252C1: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Appends `text` to `out` with its references decoded; `work` counts the bytes looked at.
    static func decode(_ text: ArraySlice<UInt8>, into out: inout [UInt8], work: inout Int) {
        var i = text.startIndex
        while i < text.endIndex {
            work += 1
            let c = text[i]
            guard c == UInt8(ascii: "&"), let (decoded, end) = reference(in: text, at: i, work: &work) else {
                out.append(c)
                i += 1
                continue
            }
            out += decoded
            i = end
        }
    }

    /// The reference at `start` (an `&`): its bytes and the index after it.
    private static func reference(in text: ArraySlice<UInt8>, at start: Int, work: inout Int) -> ([UInt8], Int)? {
        var i = start + 1
        guard i < text.endIndex else { return nil }
        if text[i] == UInt8(ascii: "#") {
            i += 1
            let hex = i < text.endIndex && (text[i] | 0x20) == UInt8(ascii: "x")
            if hex { i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < text.endIndex, let digit = digitValue(text[i], hex: hex) {
                work += 1
                value = min(value &* (hex ? 16 : 10) &+ UInt32(digit), 0x11_0000)  // saturates past the range
                i += 1
            }
            guard i > digitsStart else { return nil }
            if i < text.endIndex, text[i] == UInt8(ascii: ";") { i += 1 }
            return (Array(String(scalar(value)).utf8), i)
        }
        let nameStart = i
        while i < text.endIndex, i - nameStart < 32, isAlphanumeric(text[i]) {
            work += 1
            i += 1
        }
        guard i > nameStart else { return nil }
        let name = String(decoding: text[nameStart..<i], as: UTF8.self)
        if i < text.endIndex, text[i] == UInt8(ascii: ";"), let decoded = HTMLEntities.decoded(named: name) {
            return (decoded, i + 1)
        }
        // Without `;`: the longest legacy name the run starts with.
        for length in stride(from: min(6, i - nameStart), through: 2, by: -1) {
            let prefix = String(decoding: text[nameStart..<(nameStart + length)], as: UTF8.self)
            if legacyNames.contains(prefix), let decoded = HTMLEntities.decoded(named: prefix) {
                return (decoded, nameStart + length)
            }
        }
        return nil
    }

    /// The character a numeric reference to `value` stands for.
    static func scalar(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80 && value <= 0x9F, let mapped = Unicode.Scalar(windows1252C1[Int(value - 0x80)]) {
            return mapped
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    private static func digitValue(_ c: UInt8, hex: Bool) -> UInt8? {
        if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { return c - UInt8(ascii: "0") }
        guard hex else { return nil }
        let lower = c | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") ? lower - UInt8(ascii: "a") + 10 : nil
    }

    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        HTMLTokenizer.isLetter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    }
}
