/// Why a search source could not answer one query. The message says what happened, in words a
/// reader of a `search_failed` event understands.
///
/// ```swift
/// throw SearchSourceError(.httpStatus, "HTTP 503 Service Unavailable: upstream down")
/// ```
public struct SearchSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The service answered with an error status (4xx other than a lasting 429, or 5xx).
        case httpStatus
        /// The service kept answering 429 after its `Retry-After` was honoured once.
        case rateLimited
        /// The body was not in the service's documented format.
        case unreadableBody
        /// The service could not be reached.
        case unreachable
        /// The source did not answer in time.
        case timeout
        /// The source cannot be used as configured (a missing key or base URL).
        case configuration
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
