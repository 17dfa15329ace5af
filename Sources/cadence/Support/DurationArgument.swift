import ArgumentParser

/// A length of time on the command line: `30` (seconds), `30s`, `2m`, `1h` or `500ms`; fractions
/// such as `1.5s` or `0.5` work too.
///
/// ```swift
/// @Option var timeout: DurationArgument = "360s"
/// configuration.overallTimeout = timeout.duration
/// ```
struct DurationArgument: ExpressibleByArgument, ExpressibleByStringLiteral, Hashable, Sendable, CustomStringConvertible {
    let duration: Duration
    /// What was written, for `--help` defaults and messages.
    let description: String

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: " ")
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        let (number, scale) =
            units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
            .map { (text.dropLast($0.suffix.count), $0.milliseconds) } ?? (Substring(text), 1000)
        guard let value = Double(number), value.isFinite, value >= 0, value * scale < 1e15 else { return nil }
        duration = .microseconds(Int64((value * scale * 1000).rounded()))
        description = String(text)
    }

    init(stringLiteral value: String) {
        guard let parsed = Self(argument: value) else { preconditionFailure("not a duration: \(value)") }
        self = parsed
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// Whether the duration is longer than zero.
    var isPositive: Bool { duration > .zero }
}

extension String {
    /// The string without `character` at either end.
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var slice = Substring(self)
        while slice.first == character { slice.removeFirst() }
        while slice.last == character { slice.removeLast() }
        return slice
    }
}
