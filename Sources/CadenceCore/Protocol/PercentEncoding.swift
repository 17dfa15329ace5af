/// Percent-encoding for the parts of URLs that Cadence builds (RFC 3986): every byte of the UTF-8
/// text but the unreserved characters (`A–Z a–z 0–9 - . _ ~`) becomes `%XX`, upper-case.
///
/// ```swift
/// PercentEncoding.encode("a b/ü")                    // "a%20b%2F%C3%BC"  (a path segment, an id)
/// PercentEncoding.encode("a b/ü", keepingSlashes: true)  // "a%20b/%C3%BC"  (a path)
/// ```
package enum PercentEncoding {
    /// `text` with every byte but the unreserved characters (and `/`, with `keepingSlashes`) encoded.
    package static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                encoded.unicodeScalars.append("/")
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
