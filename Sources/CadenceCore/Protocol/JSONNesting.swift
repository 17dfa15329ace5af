/// How deep JSON text is in brackets, read one byte at a time: brackets inside strings (escapes
/// included) do not count. The scanners that find JSON in a stream of other text share it.
///
/// ```swift
/// var nesting = JSONNesting()
/// for byte in #"{"a": "}", "b": [1]}"#.utf8 { nesting.track(byte) }
/// nesting.depth    // 0: the object closed
/// ```
struct JSONNesting: Sendable {
    /// Open `{` and `[` less closing `}` and `]`, outside strings.
    private(set) var depth = 0
    private var inString = false
    private var escaped = false

    /// Reads the next byte.
    mutating func track(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
    }
}
