import CadenceCore
import Foundation
import NIOCore

/// Why an answer stream failed. The message says what happened and what to do.
///
/// ```swift
/// do { for try await event in client.answer(request) { … } }
/// catch let error as CadenceClientError where error.code == .httpStatus {
///     print(error.status ?? 0, error.message)
/// }
/// ```
public struct CadenceClientError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The server answered with a status other than 200; see ``status`` and ``body``.
        case httpStatus
        /// The body broke the SSE rules or a limit.
        case malformedStream
        /// An event's JSON was not a valid research event.
        case malformedEvent
        /// The connection failed or closed unexpectedly.
        case transport
        /// The URL could not be used.
        case invalidURL
    }

    public var code: Code
    public var message: String
    /// The HTTP status, for ``Code/httpStatus``.
    public var status: Int?
    /// The response body text (at most 64 KiB), for ``Code/httpStatus``.
    public var body: String?
    /// Whether trying again may succeed: connection failures, and statuses 408, 409, 429, 5xx and 529.
    public var retryable: Bool
    /// How long the server asked the client to wait (`retry-after-ms` or `retry-after`), if it did.
    public var retryAfter: Duration?
    public var underlying: (any Error & Sendable)?

    // A public struct's memberwise init, written out because Swift does not make it public (as in
    // AnswerFailure and ConnectionFailure, whose fields differ).
    public init(
        _ code: Code, message: String, status: Int? = nil, body: String? = nil, retryable: Bool = false,
        retryAfter: Duration? = nil, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.body = body
        self.retryable = retryable
        self.retryAfter = retryAfter
        self.underlying = underlying
    }

    public var description: String { message }

    /// Whether the layers that retry (the answer stream, model research) try again after this
    /// failure: every broken connection, and every failure ``retryable`` marks.
    package var shouldRetry: Bool { code == .transport || retryable }

    /// The decoder limit a ``Code/malformedStream`` broke, read from its underlying error.
    var exceededLimit: SSEDecoderError.Code? {
        switch underlying {
        case let error as SSEDecoderError: error.code
        case let error as ModelStreamError: error.code
        default: nil
        }
    }

    static func httpStatus(_ status: Int, reason: String, body: String, retryAfter: Duration?) -> CadenceClientError {
        let detail = (Self.serverMessage(in: body) ?? body).oneLine(limit: 300)
        let suffix = detail.isEmpty ? "" : ": \(detail)"
        return CadenceClientError(
            .httpStatus, message: "the server answered HTTP \(status) \(reason)\(suffix)", status: status, body: body,
            retryable: ConnectionFailure.isRetryable(status: status), retryAfter: retryAfter)
    }

    /// A connection to `url` that could not be made or broke before the answer, retryable.
    static func unreachable(_ url: String, _ error: any Error) -> CadenceClientError {
        CadenceClientError(
            .transport, message: "could not reach \(url): \(SystemErrorText.describe(error))", retryable: true, underlying: error)
    }

    /// The provider's or server's message in a JSON error body.
    static func serverMessage(in body: String) -> String? {
        ModelError.providerMessage(inErrorBody: Array(body.utf8))
    }
}
