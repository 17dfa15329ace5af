/// A property that must hold for every input: the check a libFuzzer target runs on each input it
/// generates, and the check a regression test runs on each input saved under `Fuzz/Regressions`.
///
/// An oracle reads its input as a ``FuzzInput`` (a small header that chooses options and chunk
/// boundaries, then the payload) and throws ``OracleViolation`` when the property fails. Beyond
/// "does not crash", every oracle compares the component with itself: fed whole, fed in the chunks the
/// header chooses, fed one piece at a time, the result must be the same.
///
/// ```swift
/// try SSESplitOracle.check(Array("\u{0}\u{7}data: hi\n\n".utf8))   // passes
/// ```
public protocol FuzzOracle: SendableMetatype {
    /// The name of the fuzz target and of its folder under `Fuzz/Regressions`.
    static var target: String { get }

    /// Checks the property on one input, in the variant its header chooses: what the fuzzer runs.
    static func check(_ data: [UInt8]) throws(OracleViolation)

    /// Checks the property on one input in every variant the header could choose between (both
    /// detection modes of a provider stream, a tail read after every markdown chunk): what a regression
    /// test runs, so that a saved input keeps failing whichever variant found it. By default, ``check(_:)``.
    static func checkEveryVariant(_ data: [UInt8]) throws(OracleViolation)
}

extension FuzzOracle {
    public static func checkEveryVariant(_ data: [UInt8]) throws(OracleViolation) { try check(data) }

    /// The body of `LLVMFuzzerTestOneInput`: checks the input and traps on a violation, so that
    /// libFuzzer saves the input as a crash.
    public static func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        do {
            try check(bytes)
        } catch {
            fatalError("\(target): \(error)")
        }
        return 0
    }
}

/// What an oracle found: the property that failed, and the two results that differ.
public struct OracleViolation: Error, Sendable, CustomStringConvertible {
    /// The property that failed, in words.
    public var property: String
    /// The details: typically the expected and the actual result.
    public var detail: String

    public init(_ property: String, _ detail: String = "") {
        self.property = property
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? property : "\(property): \(detail)" }

    /// Throws unless `actual == expected`.
    static func expect<T: Equatable>(
        _ actual: T, equals expected: T, _ property: @autoclosure () -> String
    ) throws(OracleViolation) {
        guard actual != expected else { return }
        throw OracleViolation(property(), "expected \(expected), got \(actual)")
    }
}
