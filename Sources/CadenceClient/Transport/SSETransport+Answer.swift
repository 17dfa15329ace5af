public import CadenceCore

extension SSETransport {
    /// Asks a question and reads one connection's research events as the server writes them, for
    /// tools that read the protocol's raw events. Cancelling the task that iterates the stream
    /// closes the connection.
    ///
    /// It neither resumes nor retries: a dropped connection ends the stream with an error. For an
    /// answer that survives drops, stalls and restarts, read ``AnswerStream`` over the same transport
    /// instead.
    ///
    /// ```swift
    /// let transport = SSETransport(baseURL: "http://127.0.0.1:8080")   // bearerToken: "…" for a server with a token
    /// for try await event in transport.answer(AnswerRequest(query: "How does resume work?")) {
    ///     if case .token(let text) = event.kind { print(text, terminator: "") }
    /// }
    /// ```
    public func answer(_ request: AnswerRequest) -> ResearchEventStream {
        ResearchEventStream(transport: self, request: request)
    }
}
