/// Why a pacing trace could not be used.
///
/// ```swift
/// do {
///     let trace = try PacingTrace.load(path: "bursty.json")
/// } catch {
///     print(error)   // "cannot read trace bursty.json: …"
/// }
/// ```
public struct PacingError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case unreadableFile, invalidTrace
        }

        private let base: Base

        /// The file could not be read.
        public static let unreadableFile = Code(base: .unreadableFile)
        /// The file is not a valid trace (see METRICS.md for the format).
        public static let invalidTrace = Code(base: .invalidTrace)

        public var description: String {
            switch base {
            case .unreadableFile: "unreadableFile"
            case .invalidTrace: "invalidTrace"
            }
        }
    }

    public let code: Code
    /// What happened and what to do, for people.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
