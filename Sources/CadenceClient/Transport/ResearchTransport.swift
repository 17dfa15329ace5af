public import CadenceCore

/// Something that carries one answer's research events: SSE, WebSocket or HTTP polling.
///
/// A transport opens one connection per call; reconnecting and resuming are the caller's job
/// (`ResumeCursor` says where to resume). Every failure is thrown as ``CadenceClientError`` with
/// `retryable` and `retryAfter` set, so the reliability engine can decide what to do.
public protocol ResearchTransport: Sendable {
    /// Opens a connection for a new answer, or resumes one after `resume.lastSequence`.
    func open(_ request: AnswerRequest, resume: ResumeCursor?) async throws -> TransportConnection

    /// Asks the server to stop producing answer `id` (`DELETE /v1/answers/{id}`): its readers get a
    /// terminal `error` with code `cancelled`, and it cannot be resumed into more text. Closing a
    /// connection alone never cancels: the server goes on, for a later resume. The default does nothing.
    func cancelAnswer(id: String) async throws
}

/// One open connection: the server's id for the answer, and what arrives on it.
public struct TransportConnection: Sendable {
    /// The id the server gave the answer (needed to resume), if it gave one.
    public var answerID: String?
    /// Ends when the connection closes cleanly; throws when it breaks. Read once.
    public var items: TransportItems

    public init(answerID: String?, items: TransportItems) {
        self.answerID = answerID
        self.items = items
    }

    /// A connection whose items a task of the transport's own yields into `items`.
    public init(answerID: String?, items: AsyncThrowingStream<TransportItem, any Error>) {
        self.init(answerID: answerID, items: TransportItems(items))
    }
}

/// What a connection delivers.
public enum TransportItem: Sendable, Hashable {
    /// A research event (content, stage or terminal).
    case event(ResearchEvent)
    /// Bytes that carry no event: `: keepalive` and other comments. They prove the connection is
    /// alive, but are not content.
    case keepalive
}
