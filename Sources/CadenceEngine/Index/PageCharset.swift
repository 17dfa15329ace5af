import Foundation

/// How the bytes of a page or text file become text: the character encoding a byte-order mark, the
/// HTTP `Content-Type` charset or (in HTML) a `<meta charset>` / `<meta http-equiv>` in the first
/// 1024 bytes names, in that order of precedence, as browsers decide.
///
/// With no declaration, valid UTF-8 is read as UTF-8 and anything else as Windows-1252. The labels
/// `iso-8859-1`, `latin1` and `us-ascii` mean Windows-1252 (as the WHATWG Encoding standard says, and
/// as the pages labelled so are written). Decoding never fails: bytes an encoding cannot read
/// become U+FFFD, and a label that is not known here (or that Foundation cannot decode on this
/// platform) falls back to the undeclared rule.
///
/// ```swift
/// PageCharset.decode([0x63, 0x61, 0x66, 0xE9], declared: "iso-8859-1", isHTML: false)  // "café"
/// ```
public enum PageCharset {
    /// How many leading bytes of HTML are searched for a `<meta>` declaration.
    static let prescanLength = 1024

    /// The text of `bytes`, decoded as the page declares (see ``PageCharset``).
    ///
    /// - Parameters:
    ///   - bytes: the page or file.
    ///   - declared: the `charset` parameter of the HTTP `Content-Type`, if any.
    ///   - isHTML: whether to look for a `<meta>` declaration.
    public static func decode(_ bytes: [UInt8], declared: String?, isHTML: Bool) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        if bytes.starts(with: [0xFF, 0xFE]), let text = decode(bytes.dropFirst(2), as: .utf16LittleEndian) {
            return text
        }
        if bytes.starts(with: [0xFE, 0xFF]), let text = decode(bytes.dropFirst(2), as: .utf16BigEndian) { return text }
        for label in [declared, isHTML ? metaCharset(in: bytes) : nil].compactMap({ $0 }) {
            if let text = decode(bytes, label: label) { return text }
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return decodeWindows1252(bytes[...])
    }

    /// The text of `bytes` in the encoding `label` names, or `nil` for a label not known here.
    static func decode(_ bytes: [UInt8], label: String) -> String? {
        let name = label.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\n\"'")).lowercased()
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
            return String(decoding: bytes, as: UTF8.self)
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "ibm819", "us-ascii", "ascii",
            "windows-1252", "cp1252", "x-cp1252", "iso-ir-100", "csisolatin1":
            return decodeWindows1252(bytes[...])
        case "utf-16le", "utf-16": return decode(bytes[...], as: .utf16LittleEndian)
        case "utf-16be": return decode(bytes[...], as: .utf16BigEndian)
        default:
            guard let encoding = foundationEncodings[name] else { return nil }
            return decode(bytes[...], as: encoding)
        }
    }

    /// Other encodings Foundation may decode, by label.
    private static let foundationEncodings: [String: String.Encoding] = [
        "windows-1250": .windowsCP1250, "cp1250": .windowsCP1250, "windows-1251": .windowsCP1251,
        "cp1251": .windowsCP1251, "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254,
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2, "shift_jis": .shiftJIS, "sjis": .shiftJIS,
        "x-sjis": .shiftJIS, "ms_kanji": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
    ]

    private static func decode(_ bytes: ArraySlice<UInt8>, as encoding: String.Encoding) -> String? {
        String(data: Data(bytes), encoding: encoding)
    }

    /// Windows-1252, total: the five bytes it leaves undefined become the C1 controls of the same
    /// value (as the WHATWG Encoding standard says), which later cleaning removes.
    static func decodeWindows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            let value = byte >= 0x80 && byte <= 0x9F ? HTMLEntityDecoder.windows1252C1[Int(byte - 0x80)] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// The charset a `<meta charset=…>` or `<meta http-equiv="Content-Type" content="…; charset=…">`
    /// in the first 1024 bytes names.
    static func metaCharset(in bytes: [UInt8]) -> String? {
        var tokenizer = HTMLTokenizer(Array(bytes.prefix(prescanLength)))
        while let token = tokenizer.next() {
            guard case .startTag("meta", let attributes, _) = token else { continue }
            if let charset = attributes.first(where: { $0.name == "charset" })?.value, !charset.isEmpty {
                return charset
            }
            let isContentType = attributes.contains {
                $0.name == "http-equiv" && $0.value.lowercased() == "content-type"
            }
            if isContentType, let content = attributes.first(where: { $0.name == "content" })?.value,
                let charset = charsetParameter(of: content)
            {
                return charset
            }
        }
        return nil
    }

    /// The `charset` parameter of a `Content-Type` value (`text/html; charset="utf-8"` gives `utf-8`).
    public static func charsetParameter(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'"))
            if !value.isEmpty { return value }
        }
        return nil
    }
}
