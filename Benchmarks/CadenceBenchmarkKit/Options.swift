import Foundation

/// The command line of every benchmark: `--name value` pairs and `--json`.
package struct Options {
    private var values: [String: String] = [:]
    package private(set) var flags: Set<String> = []

    /// Reads `arguments`, allowing only the options named in `known` (without `--`), each followed by
    /// its value, and the flags named in `allowed`.
    package init(_ arguments: some Sequence<String>, known: Set<String>, flags allowed: Set<String> = ["json"]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("--") else { throw BenchmarkError("unexpected argument \(argument)") }
            let name = String(argument.dropFirst(2))
            if allowed.contains(name) {
                flags.insert(name)
            } else if known.contains(name), let value = iterator.next() {
                values[name] = value
            } else {
                throw BenchmarkError("unknown option \(argument) (or its value is missing)")
            }
        }
    }

    package var json: Bool { flags.contains("json") }

    package func string(_ name: String) -> String? { values[name] }

    package func integer(_ name: String, default value: Int) throws -> Int {
        guard let text = values[name] else { return value }
        guard let number = Int(text.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: ",", with: "")),
            number >= 0
        else { throw BenchmarkError("--\(name) needs a whole number, not \(text)") }
        return number
    }
}
