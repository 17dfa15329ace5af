/// A benchmark's figures in the order they were measured, printed either as a two-column table
/// for people or as one JSON object (`--json`) for scripts.
package struct Figures {
    package enum Value {
        case integer(Int)
        case number(Double, decimals: Int)
        case text(String)

        package var json: String {
            switch self {
            case .integer(let value): String(value)
            case .number(let value, let decimals): value.isFinite ? formatted(value, decimals: decimals) : "null"
            case .text(let value): "\"" + value.replacingJSONSpecials() + "\""
            }
        }

        package var human: String {
            switch self {
            case .integer(let value): grouped(value)
            case .number(let value, let decimals) where decimals == 0 && value.isFinite: grouped(Int(value.rounded()))
            case .number(let value, let decimals): formatted(value, decimals: decimals)
            case .text(let value): value
            }
        }
    }

    package private(set) var entries: [(name: String, value: Value, note: String)] = []

    package init() {}

    package mutating func add(_ name: String, _ value: Int, _ note: String = "") {
        entries.append((name, .integer(value), note))
    }

    package mutating func add(_ name: String, _ value: Double, decimals: Int = 1, _ note: String = "") {
        entries.append((name, .number(value, decimals: decimals), note))
    }

    package mutating func add(_ name: String, _ value: String, _ note: String = "") {
        entries.append((name, .text(value), note))
    }

    /// Adds every figure of `other` after these, in order.
    package mutating func append(contentsOf other: Figures) {
        entries += other.entries
    }

    package var json: String {
        "{" + entries.map { "\"\($0.name)\":\($0.value.json)" }.joined(separator: ",") + "}"
    }

    package func table(title: String) -> String {
        let width = entries.map(\.name.count).max() ?? 0
        let valueWidth = entries.map(\.value.human.count).max() ?? 0
        var lines = [title]
        for entry in entries {
            let name = entry.name + String(repeating: " ", count: width - entry.name.count)
            let value = String(repeating: " ", count: valueWidth - entry.value.human.count) + entry.value.human
            lines.append("  \(name)  \(value)" + (entry.note.isEmpty ? "" : "  \(entry.note)"))
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func replacingJSONSpecials() -> String {
        var result = ""
        for character in unicodeScalars {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where character.value < 0x20:
                result += "\\u00" + (character.value < 0x10 ? "0" : "") + String(character.value, radix: 16)
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

/// A number with a fixed count of decimals.
package func formatted(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = decimals == 0 ? String(Int(rounded)) : String(rounded)
    if decimals > 0, let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if have < decimals { text += String(repeating: "0", count: decimals - have) }
    }
    return text
}

/// An integer with thousands separated by commas, as the docs write them.
package func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result += "," }
        result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
}
