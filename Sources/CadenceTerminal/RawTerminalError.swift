/// Why the terminal could not be taken over.
///
/// ```swift
/// do { try terminal.enter() } catch let error as RawTerminalError { print(error.message) }
/// ```
public struct RawTerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed and what to do about it.
    public var message: String
    /// The `errno` of the failing call.
    public var code: Int32

    public init(message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    public var description: String { message }
}
