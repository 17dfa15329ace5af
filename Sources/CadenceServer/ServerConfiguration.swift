/// Settings of the reference server.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 8080
/// configuration.token = "s3cret"          // clients send Authorization: Bearer s3cret
/// configuration.maxConnections = 1_000
/// ```
public struct ServerConfiguration: Sendable, Hashable {
    /// The address to bind; loopback by default.
    public var host: String
    /// The port to bind; 0 picks a free port.
    public var port: Int
    /// How long a stream may stay quiet before the server sends `: keepalive`.
    public var keepAliveInterval: Duration
    /// The largest request body accepted, in bytes (larger gets 413).
    public var maxRequestBytes: Int
    /// The longest query accepted, in characters (longer gets 413).
    public var maxQueryCharacters: Int
    /// What the server keeps of each answer for clients that resume.
    public var replay: ReplayLimits
    /// The most answers this node produces at once; past it, `POST` gets `503` with `Retry-After`.
    /// `nil` for no limit.
    public var maxAnswers: Int?
    /// Share answers with other nodes through PostgreSQL; `nil` keeps them in this process's memory.
    public var postgres: PostgresConfiguration?
    /// The token clients must send as `Authorization: Bearer TOKEN` on every request but
    /// `GET /healthz`; `nil` lets anyone in. Compared in constant time.
    public var token: String?
    /// The most connections busy at once, that is with a complete request whose response is not
    /// finished, or upgraded to a WebSocket; `nil` for no limit. A request that would make one more
    /// busy gets `503 server_busy` with `Retry-After` and `Connection: close`. Connections that only
    /// open, or rest between requests, do not count (the timeouts and ``maxConnectionsPerClient``
    /// bound them).
    public var maxConnections: Int?
    /// The most connections open at once from one client address; one more is closed at once,
    /// before anything is read. `nil` for no limit. Behind a proxy every connection comes from the
    /// proxy's address: raise it to the proxy's connection pool.
    public var maxConnectionsPerClient: Int?
    /// How long a connection may take to deliver a whole request head, from when it opens or from the
    /// first byte of its next request; one that takes longer (trickling header bytes) is closed.
    /// Streaming responses and WebSockets are not timed.
    public var requestReadTimeout: Duration
    /// The web page origins allowed to use the server from a browser, as browsers send them
    /// (`https://app.example.com`, `http://localhost:5173`): their preflights are answered and their
    /// responses carry CORS headers. A request from any other page is refused (403); a request with
    /// no `Origin` (not from a browser page) is served. `*` and `null` are refused by
    /// ``ReferenceServer/start(handlingSignals:)``.
    public var corsOrigins: [String] = []
    /// Names clients may give in `Host` besides the bound address (and `localhost`, on a loopback
    /// bind), where any other gets 421. On a bind other than loopback, `Host` is checked only when
    /// this names at least one.
    public var publicHosts: [String] = []
    /// The longest one answer may take, whatever its engine; past it, the answer ends with an `error`
    /// event whose code is `budget_exceeded`, after the text so far (`AnswerEngine.timeBudgeted(_:clock:)`).
    /// `nil` for no limit.
    public var maxAnswerTime: Duration? = .seconds(600)
    /// How long a keep-alive connection may rest between requests before it is closed; `nil`: the
    /// ``requestReadTimeout``.
    public var idleTimeout: Duration?
    /// How long a request body may take to arrive, from its complete head; a slower one gets `408`
    /// (if nothing of its response was sent) and its connection is closed. `nil`: the
    /// ``requestReadTimeout``.
    public var requestBodyTimeout: Duration?
    /// Verify each client's JSON Web Token and serve it as the token's `sub`: each answer and
    /// conversation then belongs to the subject that made it. `nil`: every client is one subject
    /// (no auth, or the one ``token``). Not together with ``token``.
    public var jwt: JWTConfiguration? = nil
    /// The most answers one subject may have in production at once on this node; past it, `POST`
    /// gets `429` with `Retry-After`. `nil` for no limit.
    public var maxAnswersPerSubject: Int? = nil
    /// The most requests one subject may make a minute (a token bucket that refills at this rate);
    /// past it, requests get `429` with `Retry-After`. `nil` for no limit.
    public var rateLimit: Int? = nil

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        keepAliveInterval: Duration = .seconds(15),
        maxRequestBytes: Int = 1 << 20,
        maxQueryCharacters: Int = 4_000,
        replay: ReplayLimits = ReplayLimits(),
        maxAnswers: Int? = nil,
        postgres: PostgresConfiguration? = nil,
        token: String? = nil,
        maxConnections: Int? = nil,
        requestReadTimeout: Duration = .seconds(10),
        maxConnectionsPerClient: Int? = 64,
        idleTimeout: Duration? = nil,
        requestBodyTimeout: Duration? = nil
    ) {
        self.host = host
        self.port = port
        self.keepAliveInterval = keepAliveInterval
        self.maxRequestBytes = maxRequestBytes
        self.maxQueryCharacters = maxQueryCharacters
        self.replay = replay
        self.maxAnswers = maxAnswers
        self.postgres = postgres
        self.token = token
        self.maxConnections = maxConnections
        self.requestReadTimeout = requestReadTimeout
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.idleTimeout = idleTimeout
        self.requestBodyTimeout = requestBodyTimeout
    }
}
