/// A failure reported by a model provider, in the stream or as an HTTP error response.
///
/// `code` is the provider's own code when it gives one (`"overloaded_error"`, `"rate_limit_exceeded"`,
/// `"CANCELLED"`), or one of Cadence's: ``invalidJSON`` for content that could not be parsed,
/// ``unknownDialect`` when auto-detection failed, ``httpStatus`` for an error body without a code.
/// `status` is the HTTP status or a provider's numeric code (Gemini writes `"code": 499`).
///
/// ```swift
/// let error = ModelError(httpStatus: 429, body: Array(#"{"error":{"message":"Slow down"}}"#.utf8))
/// error.message    // "Slow down"
/// error.retryable  // true
/// ```
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider's error code, or one of Cadence's (``invalidJSON``, ``unknownDialect``, ``httpStatus``).
    public var code: String?
    /// A human-readable message: the provider's, or one naming what was wrong.
    public var message: String
    /// Whether sending the same request again may succeed.
    public var retryable: Bool
    /// The HTTP status, or the provider's numeric code, when known.
    public var status: Int?

    public init(code: String? = nil, message: String, retryable: Bool = false, status: Int? = nil) {
        self.code = code
        self.message = message
        self.retryable = retryable
        self.status = status
    }

    /// Cadence's code for stream content that is not valid JSON, or JSON of an unexpected shape.
    public static let invalidJSON = "invalid_json"
    /// Cadence's code for a captured stream whose dialect could not be detected.
    public static let unknownDialect = "unknown_dialect"
    /// Cadence's code for an HTTP error response whose body names no code.
    public static let httpStatus = "http_status"

    public var description: String {
        var parts: [String] = []
        if let status { parts.append(String(status)) }
        if let code, code != String(status ?? Int.min) { parts.append(code) }
        let prefix = parts.isEmpty ? "" : "[" + parts.joined(separator: " ") + "] "
        return prefix + message + (retryable ? " (retryable)" : "")
    }

    /// Whether a provider error code is worth retrying, for errors that arrive inside a stream
    /// without an HTTP status.
    static func isRetryable(code: String?) -> Bool {
        guard let code else { return false }
        return retryableCodes.contains(code)
    }

    private static let retryableCodes: Set<String> = [
        // Anthropic error types
        "overloaded_error", "api_error", "rate_limit_error", "timeout_error",
        // OpenAI error types and codes
        "server_error", "rate_limit_exceeded", "timeout", "server_is_overloaded", "slow_down",
        // Google RPC statuses
        "UNAVAILABLE", "RESOURCE_EXHAUSTED", "INTERNAL", "DEADLINE_EXCEEDED", "ABORTED",
    ]
}
