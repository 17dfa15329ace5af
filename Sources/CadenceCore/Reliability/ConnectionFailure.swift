/// How a connection failed, as the driver tells ``AnswerStreamMachine/connectionFailed(_:now:)``.
///
/// ```swift
/// // The transport threw CadenceClientError(.httpStatus, status: 503, retryable: true, retryAfter: .seconds(2))
/// let failure = ConnectionFailure(
///     message: error.message, retryable: error.retryable, retryAfter: error.retryAfter,
///     status: error.status, beforeFirstByte: true)
/// ```
public struct ConnectionFailure: Sendable, Hashable {
    /// What happened, for the failure message when the answer cannot go on.
    public var message: String
    /// Whether trying again may help: connection errors and statuses 408, 409, 429, 5xx, 529.
    public var retryable: Bool
    /// How long the server asked to wait (`retry-after-ms` or `retry-after`), if it did.
    public var retryAfter: Duration?
    /// The HTTP status of the response, when the failure is a status. 404 and 410 on a resume mean
    /// the server no longer has the answer; 416 means it refused the cursor as past the answer's end.
    public var status: Int?
    /// Whether the failure came before the response body's first byte (a status, a refused
    /// connection). The machine also knows whether it saw bytes on this connection; both must agree.
    public var beforeFirstByte: Bool
    /// The decoder limit the stream broke (a line or an event too large), when that caused the failure.
    public var exceededLimit: SSEDecoderError.Code?
    /// Whether an event that could not be read (invalid JSON, a member of the wrong type) ended the
    /// connection. The machine resumes once from the last event it applied, and ends the answer only
    /// if the same place fails again.
    public var malformedEvent: Bool

    // The memberwise init, written out because Swift does not make it public.
    public init(
        message: String, retryable: Bool, retryAfter: Duration? = nil, status: Int? = nil, beforeFirstByte: Bool,
        exceededLimit: SSEDecoderError.Code? = nil, malformedEvent: Bool = false
    ) {
        self.message = message
        self.retryable = retryable
        self.retryAfter = retryAfter
        self.status = status
        self.beforeFirstByte = beforeFirstByte
        self.exceededLimit = exceededLimit
        self.malformedEvent = malformedEvent
    }

    /// A response whose status is not 200, before any body byte. `retryable` follows the status.
    public static func status(_ status: Int, message: String, retryAfter: Duration? = nil) -> ConnectionFailure {
        ConnectionFailure(
            message: message, retryable: isRetryable(status: status), retryAfter: retryAfter, status: status,
            beforeFirstByte: true)
    }

    /// A broken or refused connection (always retryable).
    public static func transport(_ message: String, beforeFirstByte: Bool) -> ConnectionFailure {
        ConnectionFailure(message: message, retryable: true, beforeFirstByte: beforeFirstByte)
    }

    /// Whether an HTTP status is worth retrying, for a research server and a model provider alike:
    /// 408, 409, 429 and every 5xx (including Anthropic's 529 "overloaded") are; 400, 401, 403 and
    /// the other 4xx are not.
    ///
    /// ```swift
    /// ConnectionFailure.isRetryable(status: 529)  // true
    /// ConnectionFailure.isRetryable(status: 401)  // false
    /// ```
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 409 || status == 429 || (500...599).contains(status)
    }

    /// Whether the server says the answer no longer exists (404 or 410).
    var isAnswerGone: Bool { status == 404 || status == 410 }

    /// Whether the server refused the resume cursor as past the answer's last event (416): it never
    /// sent that sequence, so it and the client disagree about the answer.
    var isCursorRefused: Bool { status == 416 }
}
