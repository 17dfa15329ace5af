/// An RFC 8259 JSON parser into ``JSONValue``, working on UTF-8 bytes without Foundation.
///
/// Providers send one JSON object per token, so parsing is most of a dialect decoder's work; this
/// parser is several times faster than going through `JSONDecoder`. It accepts what
/// `JSONValue(parsing:)` accepts, with the same results: one trailing comma in an object or array is
/// allowed, and of duplicate keys the first wins. Invalid UTF-8 inside strings becomes U+FFFD, as a
/// lone surrogate escape does.
///
/// ```swift
/// try JSONTextParser.parse(#"{"a":[1,true,null]}"#)  // ["a": [1, true, nil]]
/// ```
struct JSONTextParser {
    /// The text is not JSON: `message` says what was found where.
    struct Failure: Error, Sendable, Hashable {
        var message: String
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON value, with optional whitespace around it.
    static func parse(_ text: String) throws(Failure) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in Result { () throws(Failure) in try parse(buffer) } }
        return try result.get()
    }

    /// Parses one JSON value from UTF-8 bytes, with optional whitespace around it: the same value,
    /// or the same failure, as parsing the `String` the bytes decode to (invalid UTF-8 as U+FFFD).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONTextParser(bytes: bytes)
        do {
            return try parser.parseDocument()
        } catch {
            // Bytes and their text parse alike: invalid UTF-8 inside a string decodes to U+FFFD either
            // way, and outside one fails either way. Only a failure's message, which names a byte and
            // its offset, can differ: take it from the text, as parsing the String would.
            guard UTF8Validation.check(bytes) == .invalid else { throw error }
            return try parse(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Parses one JSON value from the UTF-8 bytes of `slice`.
    static func parse(_ slice: ArraySlice<UInt8>) throws(Failure) -> JSONValue {
        let result = slice.withUnsafeBufferPointer { buffer in Result { () throws(Failure) in try parse(buffer) } }
        return try result.get()
    }

    private mutating func parseDocument() throws(Failure) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count { throw failure("unexpected content after the JSON value") }
        return value
    }

    /// An array or object being parsed: the values read so far live in `arrays` and `objects`, the
    /// innermost last, so the parser needs no recursion (a 512-deep value would otherwise take
    /// a thousand stack frames, more than a small thread's stack holds in a debug build).
    private enum Open {
        case array
        /// An object, with the key of the member whose value comes next.
        case object(key: String)
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        var open: [Open] = []
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        // Room for the usual nesting of a provider's payload, so the stacks do not grow one by one.
        if position < bytes.count, bytes[position] == UInt8(ascii: "{") || bytes[position] == UInt8(ascii: "[") {
            open.reserveCapacity(8)
            arrays.reserveCapacity(4)
            objects.reserveCapacity(4)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw failure("the text ends where a value should start") }
            var value: JSONValue
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try enter()
                skipWhitespace()
                if consume(UInt8(ascii: "}")) {
                    depth -= 1
                    value = .object([:])
                } else {
                    open.append(.object(key: try parseKey()))
                    objects.append([:])
                    continue
                }
            case UInt8(ascii: "["):
                try enter()
                skipWhitespace()
                if consume(UInt8(ascii: "]")) {
                    depth -= 1
                    value = .array([])
                } else {
                    open.append(.array)
                    arrays.append([])
                    continue
                }
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "t"): value = try parseLiteral("true", .bool(true))
            case UInt8(ascii: "f"): value = try parseLiteral("false", .bool(false))
            case UInt8(ascii: "n"): value = try parseLiteral("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
            default: throw failure("unexpected character")
            }
            // The value completes its container, which may complete the one around it, and so on.
            closing: while let innermost = open.last {
                switch innermost {
                case .array:
                    arrays[arrays.count - 1].append(value)
                    skipWhitespace()
                    if consume(UInt8(ascii: ",")) && !endsAfterTrailingComma(UInt8(ascii: "]")) { break closing }
                    guard consume(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
                    value = .array(arrays.removeLast())
                case .object(let key):
                    if objects[objects.count - 1][key] == nil { objects[objects.count - 1][key] = value }
                    skipWhitespace()
                    if consume(UInt8(ascii: ",")) && !endsAfterTrailingComma(UInt8(ascii: "}")) {
                        open[open.count - 1] = .object(key: try parseKey())
                        break closing
                    }
                    guard consume(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
                    value = .object(objects.removeLast())
                }
                open.removeLast()
                depth -= 1
            }
            if open.isEmpty { return value }
        }
    }

    /// Parses an object member's key and the colon after it.
    private mutating func parseKey() throws(Failure) -> String {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw failure("expected a string key in an object")
        }
        let key = try parseString()
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { throw failure("expected ':' after an object key") }
        return key
    }

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(Failure) -> String {
        position += 1
        let start = position
        while position < bytes.count {  // the fast path: no escapes
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decodingUTF8: UnsafeBufferPointer(rebasing: bytes[start..<position - 1]))
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a control character inside a string must be escaped") }
            position += 1
        }
        var decoded = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return decoded.withUnsafeBufferPointer { String(decodingUTF8: $0) }
            case UInt8(ascii: "\\"):
                try parseEscape(into: &decoded)
            case ..<0x20:
                position -= 1
                throw failure("a control character inside a string must be escaped")
            default:
                decoded.append(byte)
            }
        }
        throw failure("the text ends inside a string")
    }

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(Failure) {
        guard position < bytes.count else { throw failure("the text ends inside a string") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar), bytes[position...].starts(with: "\\u".utf8) {
                let saved = position
                position += 2
                let low = try parseHex4()
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    position = saved  // not a pair: the high surrogate stands alone
                }
            }
            decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        default:
            position -= 1
            throw failure("invalid escape in a string")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("the text ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard skipDigits() > 0 else { throw failure("expected a digit") }
        }
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() > 0 else { throw failure("expected a digit in an exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        // Double(_:) reads an overflowing number as infinity, which JSON cannot write back.
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        return .number(value)
    }

    private mutating func parseLiteral(_ literal: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes[position...].starts(with: expected) else { throw failure("unexpected character") }
        position += expected.count
        return value
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position - start
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    /// Whether `closing` follows a comma (after whitespace): a trailing comma, accepted as Foundation does.
    private mutating func endsAfterTrailingComma(_ closing: UInt8) -> Bool {
        skipWhitespace()
        return position < bytes.count && bytes[position] == closing
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > Self.maxDepth { throw failure("nesting deeper than \(Self.maxDepth) levels") }
        position += 1
    }

    private func failure(_ problem: String) -> Failure {
        guard position < bytes.count else { return Failure(message: "\(problem) at the end of the text") }
        let byte = bytes[position]
        let shown = (0x20..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
        return Failure(message: "\(problem) at offset \(position) (\(shown))")
    }
}
