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

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value):
            if let int = intValue {
                output += String(int)
            } else if value.isFinite {
                output += String(value)
            } else {
                output += "null"
            }
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            let keys = members.keys.sorted { lhs, rhs in
                if lhs == "type" { return rhs != "type" }
                if rhs == "type" { return false }
                return lhs < rhs
            }
            for (index, key) in keys.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                members[key]!.write(to: &output)
            }
            output += "}"
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
