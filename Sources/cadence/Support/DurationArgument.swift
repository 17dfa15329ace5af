import ArgumentParser

/// A length of time on the command line: `30` (seconds), `30s`, `2m`, `1h` or `500ms`; fractions
/// such as `1.5s` or `0.5` work too. At most a year (``longest``).
///
/// Declare options with `transform: DurationArgument.parse`, so a value that is refused says why
/// (without it the parser only says the value is invalid):
///
/// ```swift
/// @Option(transform: DurationArgument.parse) var timeout: DurationArgument = "360s"
/// configuration.overallTimeout = timeout.duration
/// ```
struct DurationArgument: ExpressibleByArgument, ExpressibleByStringLiteral, Hashable, Sendable, CustomStringConvertible {
    let duration: Duration
    /// What was written, for `--help` defaults and messages.
    let description: String

    /// The longest duration an option takes: a year. Anything longer is a mistake (`10000000000` is
    /// 317 years in seconds), and past about 292 years a duration no longer fits the nanoseconds of
    /// a timer.
    static let longest = Duration.seconds(365 * 24 * 3600)

    /// Why a value is not a duration an option takes.
    struct RefusedValue: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `argument`, or throws saying why it is not a duration an option takes.
    @Sendable static func parse(_ argument: String) throws -> DurationArgument {
        let text = argument.trimmingCharacters(in: " ")
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        let (number, scale) =
            units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
            .map { (text.dropLast($0.suffix.count), $0.milliseconds) } ?? (Substring(text), 1000)
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw RefusedValue(description: "not a duration; write 30 (seconds), 30s, 2m, 1h or 500ms")
        }
        let longestMilliseconds = longest.milliseconds
        guard value * scale <= longestMilliseconds else {
            throw RefusedValue(description: "longer than a year; durations are at most 8760h")
        }
        return DurationArgument(
            duration: .microseconds(Int64((value * scale * 1000).rounded())), description: String(text))
    }

    /// Checks an option given in whole milliseconds (`--engine-delay-ms`): from 0 to ``longest``.
    static func validateMilliseconds(_ milliseconds: Int, option: String) throws {
        guard milliseconds >= 0 else { throw ValidationError("\(option) must not be negative") }
        guard Duration.milliseconds(milliseconds) <= longest else {
            throw ValidationError("\(option) is longer than a year; durations are at most 8760h")
        }
    }

    private init(duration: Duration, description: String) {
        self.duration = duration
        self.description = description
    }

    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
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
