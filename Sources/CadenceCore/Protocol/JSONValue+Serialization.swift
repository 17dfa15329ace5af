extension JSONValue {
    /// Compact JSON text. Object members are written in sorted order, except that a `"type"`
    /// member comes first so that logs and captures read naturally.
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Parses JSON text into a value (RFC 8259, on UTF-8 bytes, without Foundation).
    ///
    /// - Throws: ``JSONValue/ParseError`` saying what was found where.
    public init(parsing text: String) throws(JSONValue.ParseError) {
        do {
            self = try JSONTextParser.parse(text)
        } catch {
            throw ParseError(message: error.message)
        }
    }

    /// The JSON text could not be parsed.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { "invalid JSON: \(message)" }
    }

    /// What is left to write: values, object keys, and the punctuation between them.
    private enum Pending {
        case value(JSONValue)
        case key(String)
        case text(String)
    }

    /// Writes the value with a stack of what is left instead of recursion, so that the deepest value
    /// the parser accepts (512 levels) prints on a small thread's stack.
    private func write(to output: inout String) {
        var pending: [Pending] = [.value(self)]
        while let next = pending.popLast() {
            switch next {
            case .text(let text): output += text
            case .key(let key):
                Self.writeString(key, to: &output)
                output += ":"
            case .value(.null): output += "null"
            case .value(.bool(let value)): output += value ? "true" : "false"
            case .value(.number(let value)):
                // Integral numbers print without a fraction.
                if let int = JSONValue.number(value).intValue {
                    output += String(int)
                } else if value.isFinite {
                    output += String(value)
                } else {
                    output += "null"
                }
            case .value(.string(let value)): Self.writeString(value, to: &output)
            case .value(.array(let values)):
                output += "["
                pending.append(.text("]"))
                for (index, value) in values.enumerated().reversed() {
                    pending.append(.value(value))
                    if index > 0 { pending.append(.text(",")) }
                }
            case .value(.object(let members)):
                output += "{"
                pending.append(.text("}"))
                let keys = members.keys.sorted { lhs, rhs in
                    if lhs == "type" { return rhs != "type" }
                    if rhs == "type" { return false }
                    return lhs < rhs
                }
                for (index, key) in keys.enumerated().reversed() {
                    pending.append(.value(members[key]!))
                    pending.append(.key(key))
                    if index > 0 { pending.append(.text(",")) }
                }
            }
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
