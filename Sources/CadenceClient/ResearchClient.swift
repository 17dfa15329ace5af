public import AsyncHTTPClient
public import CadenceCore

/// The research events of answers from a Cadence research server, one SSE connection each: a thin
/// convenience over ``SSETransport``, for tools that want the protocol's raw events.
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
///
/// Cancelling the task that iterates the stream closes the connection.
public struct ResearchClient: Sendable {
    public var baseURL: String
    public var httpClient: HTTPClient
    /// How long to wait for the response head.
    public var connectTimeout: Duration
    public var limits: SSELimits
    /// The server's access token, sent as `Authorization: Bearer TOKEN` on every request; `nil` for a
    /// server that needs none. A server that wants one answers 401, which is not retried.
    public var bearerToken: String?

    public init(
        baseURL: String, httpClient: HTTPClient = .shared, connectTimeout: Duration = .seconds(30),
        limits: SSELimits = .default, bearerToken: String? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.httpClient = httpClient
        self.connectTimeout = connectTimeout
        self.limits = limits
        self.bearerToken = bearerToken
    }

    /// The transport these settings describe: the one that carries every answer.
    public var transport: SSETransport {
        SSETransport(
            baseURL: baseURL, httpClient: httpClient, connectTimeout: connectTimeout, limits: limits,
            bearerToken: bearerToken)
    }

    /// Asks a question; the events arrive as the server writes them.
    public func answer(_ request: AnswerRequest) -> ResearchEventStream {
        ResearchEventStream(transport: transport, request: request)
    }
}

extension SSETransport {
    /// A transport with a research client's settings. Kept for source compatibility: the settings
    /// are the transport's own now.
    @available(*, deprecated, renamed: "ResearchClient.transport")
    public init(client: ResearchClient) {
        self = client.transport
    }

    /// The transport's settings as a research client. Kept for source compatibility: set
    /// ``baseURL``, ``limits`` and the others directly.
    @available(*, deprecated, message: "use the transport's own baseURL, httpClient, connectTimeout, limits and bearerToken")
    public var client: ResearchClient {
        get {
            ResearchClient(
                baseURL: baseURL, httpClient: httpClient, connectTimeout: connectTimeout, limits: limits,
                bearerToken: bearerToken)
        }
        set { self = newValue.transport }
    }
}
