/// Why an answer failed, with a message for people and the partial text that arrived before.
///
/// ```swift
/// if case .failed(let failure) = update {
///     print(failure.partialText)
///     FileHandle.standardError.write("error: \(failure.message)\n")
///     if failure.code == .answerGone { offerToAskAgain() }
/// }
/// ```
public struct AnswerFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The server sent an `error` event; see ``serverCode``.
        case server
        /// The server no longer has the answer to resume (HTTP 404 or 410).
        case answerGone
        /// The server refused to resume from the last sequence applied (HTTP 416): it never sent
        /// that sequence for this answer, so it is not the answer's server any more (a restored or
        /// different store). Retrying cannot help.
        case resumeRefused
        /// The connection broke mid-answer and the answer could not be resumed.
        case interrupted
        /// The connection could not be made or kept: a status that is not retryable, or every attempt failed.
        case connection
        /// A timeout passed before any text arrived; see ``timeout``.
        case timedOut
    }

    public var code: Code
    /// One line saying what happened and what to do.
    public var message: String
    /// The text received before the failure, each token exactly once.
    public var partialText: String
    /// The sources received before the failure.
    public var sources: [Source]
    /// The HTTP status, when a response's status caused the failure.
    public var status: Int?
    /// The `code` of the server's `error` event, for ``Code/server``.
    public var serverCode: String?
    /// Which timeout, for ``Code/timedOut``.
    public var timeout: AnswerTimeout?
    /// Connection attempts made in a row without progress when the answer failed.
    public var attempts: Int
    /// The decoder limit the stream broke (``SSEDecoderError/Code/lineTooLong`` or
    /// ``SSEDecoderError/Code/eventTooLarge``), when that caused the failure: an app can say so in
    /// its own terms instead of showing ``message``, which names ``SSELimits``.
    public var exceededLimit: SSEDecoderError.Code?
    /// The model's visible reasoning received before the failure.
    public var reasoning = ""
    /// The model's refusal received before the failure.
    public var refusal = ""
    /// The tool calls received before the failure.
    public var toolCalls: [ToolCall] = []

    // The memberwise init, written out because Swift does not make it public.
    public init(
        _ code: Code, message: String, partialText: String = "", sources: [Source] = [], status: Int? = nil,
        serverCode: String? = nil, timeout: AnswerTimeout? = nil, attempts: Int = 1,
        exceededLimit: SSEDecoderError.Code? = nil
    ) {
        self.code = code
        self.message = message
        self.partialText = partialText
        self.sources = sources
        self.status = status
        self.serverCode = serverCode
        self.timeout = timeout
        self.attempts = attempts
        self.exceededLimit = exceededLimit
    }

    public var description: String { message }
}
