import ArgumentParser
import CadenceServer

/// Who may use `cadence serve`, and how much: its token and its limits (README, "Serving beyond
/// this machine").
struct AccessOptions: ParsableArguments {
    @Option(name: .long, help: "The token clients must send on every request but /healthz (default: $CADENCE_TOKEN).")
    var token: String?

    @Flag(name: .long, help: "Serve without a token on an address other than loopback.")
    var allowAnonymous = false

    @Option(name: .long, help: "The most answers this node produces at once; more get 503 with Retry-After.")
    var maxAnswers: Int?

    @Option(
        name: .long,
        help: "The most connections busy at once (a request in progress, or a WebSocket); a request past it gets 503.")
    var maxConnections: Int?

    @Option(name: .long, help: "The most connections one client address may have open; more are closed at once.")
    var maxConnectionsPerClient = 64

    @Option(name: .long, help: "How long a connection may take to send a whole request head before it is closed (10s, 500ms, 1m).", transform: DurationArgument.parse)
    var requestTimeout: DurationArgument = "10s"

    @Option(
        name: .long, help: "How long a keep-alive connection may rest between requests (default: --request-timeout).",
        transform: DurationArgument.parse)
    var idleTimeout: DurationArgument?

    @Option(
        name: .long, help: "How long a request body may take to arrive; slower gets 408 (default: --request-timeout).",
        transform: DurationArgument.parse)
    var bodyTimeout: DurationArgument?

    /// The token clients must send: `--token`, else a non-empty `$CADENCE_TOKEN`, else none.
    var requiredToken: String? { AccessToken.resolve(token) }

    func validate() throws {
        if let maxAnswers, maxAnswers < 1 { throw ValidationError("--max-answers must be at least 1") }
        try AccessToken.validate(token)
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if maxConnectionsPerClient < 1 { throw ValidationError("--max-connections-per-client must be at least 1") }
        for (name, timeout) in [
            ("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout),
        ] {
            if let timeout, !timeout.isPositive { throw ValidationError("\(name) must be longer than zero") }
        }
    }

    /// Sets the token and the limits of `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        configuration.maxAnswers = maxAnswers
        configuration.token = requiredToken
        configuration.maxConnections = maxConnections
        configuration.requestReadTimeout = requestTimeout.duration
        configuration.maxConnectionsPerClient = maxConnectionsPerClient
        configuration.idleTimeout = idleTimeout?.duration
        configuration.requestBodyTimeout = bodyTimeout?.duration
    }
}
