public import AsyncHTTPClient

extension HTTPClient {
    /// The client this module's transports and ``ModelClient`` use unless given another:
    /// AsyncHTTPClient's shared configuration, except that a connection that cannot be made (refused,
    /// unreachable) fails its request at once.
    ///
    /// `HTTPClient.shared` retries a failed connection inside its pool until the request's deadline,
    /// so a server that is down cost a whole connect timeout (30 s for a research server, 60 s for a
    /// model) per attempt, and the answer ended on a timeout that did not say the server was down.
    /// Our callers retry themselves, with backoff and a limit (``AnswerStream``'s retries, the research
    /// engine's model retries), so each attempt should report its failure as soon as it happens.
    ///
    /// ```swift
    /// let transport = SSETransport(baseURL: "http://127.0.0.1:8080", httpClient: .cadence)  // the default
    /// ```
    public static let cadence: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
