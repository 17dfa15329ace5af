import Foundation

/// An input saved under `Fuzz/Regressions/<target>/`: a crash or oracle failure a fuzzer found (or
/// an edge case worth keeping), checked in CI by the same oracle, without the fuzzer.
///
/// ```swift
/// @Test(arguments: RegressionInput.all(SSESplitOracle.self))
/// func stillPasses(_ input: RegressionInput) throws { try input.check() }
/// ```
public struct RegressionInput: Sendable, CustomStringConvertible {
    /// The fuzz target, which names the folder.
    public let target: String
    /// The file's name.
    public let name: String
    /// The input, header included.
    public let bytes: [UInt8]
    private let oracle: any FuzzOracle.Type

    public var description: String { "\(target)/\(name)" }

    /// Runs the oracle on the input as the fuzzer did (``FuzzOracle/check(_:)``), then in every
    /// variant (``FuzzOracle/checkEveryVariant(_:)``).
    public func check() throws(OracleViolation) {
        // The fuzzer's own check first: a variant may read (the markdown tail, say) at other points
        // than the fuzzer did, and miss what it found.
        try oracle.check(bytes)
        try oracle.checkEveryVariant(bytes)
    }

    /// Every input saved for these oracles' targets, in name order.
    public static func all(_ oracles: any FuzzOracle.Type...) -> [RegressionInput] {
        oracles.flatMap { oracle in
            files(of: oracle.target).map { url in
                RegressionInput(
                    target: oracle.target, name: url.lastPathComponent,
                    bytes: (try? [UInt8](Data(contentsOf: url))) ?? [], oracle: oracle)
            }
        }
    }

    /// `Fuzz/Regressions/<target>/`, found from this source file's place in the repository.
    static func folder(of target: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Regressions/\(target)", isDirectory: true)
    }

    static func files(of target: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(of: target).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder(of: target).appendingPathComponent($0) }
    }
}
