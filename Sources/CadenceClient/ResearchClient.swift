public import CadenceCore

/// The research events of answers from a Cadence research server, one SSE connection each: another
/// name for ``SSETransport``, kept for the tools that read the protocol's raw events with
/// ``SSETransport/answer(_:)``.
///
/// It neither resumes nor retries: a dropped connection ends the stream with an error. For an answer
/// that survives drops, stalls and restarts, read ``AnswerStream`` over the same transport instead.
///
/// ```swift
/// let client = ResearchClient(baseURL: "http://127.0.0.1:8080")   // bearerToken: "…" for a server with a token
/// for try await event in client.answer(AnswerRequest(query: "How does resume work?")) {
///     if case .token(let text) = event.kind { print(text, terminator: "") }
/// }
/// ```
public typealias ResearchClient = SSETransport

extension SSETransport {
    /// Asks a question and reads one connection's events as the server writes them. Cancelling the
    /// task that iterates the stream closes the connection.
    public func answer(_ request: AnswerRequest) -> ResearchEventStream {
        ResearchEventStream(transport: self, request: request)
    }

    /// The transport with a research client's settings: the same type now.
    @available(*, deprecated, message: "ResearchClient is SSETransport: use the client itself")
    public init(client: ResearchClient) {
        self = client
    }

    /// The transport as a research client: the same type now.
    @available(*, deprecated, message: "ResearchClient is SSETransport: use the transport itself")
    public var client: ResearchClient {
        get { self }
        set { self = newValue }
    }
}
