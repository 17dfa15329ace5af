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
    /// The most connections served at once; `nil` for no limit. A connection beyond it waits in the
    /// listen backlog, unaccepted, until another closes.
    public var maxConnections: Int?
    /// How long a connection may take to deliver a whole request head, from when it opens or from the
    /// first byte of its next request; one that takes longer (trickling header bytes) is closed. Idle
    /// keep-alive connections between requests, request bodies and streaming responses are not timed.
    public var requestReadTimeout: Duration
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
        requestReadTimeout: Duration = .seconds(10)
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
    }
}
