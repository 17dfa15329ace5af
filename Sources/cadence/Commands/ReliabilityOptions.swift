import ArgumentParser
import CadenceClient
import CadenceCore
import Foundation

/// How answers from a research server travel, and how long the client waits for them.
struct ReliabilityOptions: ParsableArguments {
    enum Transport: String, ExpressibleByArgument, CaseIterable {
        case sse, websocket, polling
    }

    @Option(name: .long, help: "How answers travel: sse, websocket or polling.")
    var transport: Transport = .sse

    @Option(
        name: .long,
        help: "How long without new content before the stream resumes once, and then ends with what it has (30, 30s, 2m, 500ms).", transform: DurationArgument.parse)
    var idleTimeout: DurationArgument = "120s"

    @Option(
        name: .long,
        help: "How long a connection may send nothing at all, not even a keepalive, before it is resumed on a new one (45s, 2m).", transform: DurationArgument.parse)
    var connectionIdleTimeout: DurationArgument = "45s"

    @Option(name: .long, help: "How long to wait for the first token (default 60s; 300s when researching with a model, whose planning and searching come first).", transform: DurationArgument.parse)
    var firstTokenTimeout: DurationArgument?

    /// The first-token timeout when a model plans and searches before it writes: local models can
    /// take minutes over that, while the research stages keep arriving.
    static let modelResearchFirstTokenTimeout: DurationArgument = "300s"

    @Option(name: .long, help: "How long an answer may take in all, never reset (default 360s; 30s with polling).", transform: DurationArgument.parse)
    var timeout: DurationArgument?

    @Option(name: .long, help: "Connection attempts in a row without progress before giving up.")
    var retries: Int = 3

    @Option(name: .long, help: "The server's access token, sent as Authorization: Bearer on every request (default: $CADENCE_TOKEN).")
    var token: String?

    /// The token to send: `--token`, else a non-empty `$CADENCE_TOKEN`, else none.
    var bearerToken: String? { AccessToken.resolve(token) }

    func validate() throws {
        let timeouts = [
            ("--idle-timeout", idleTimeout), ("--connection-idle-timeout", connectionIdleTimeout),
            ("--first-token-timeout", firstTokenTimeout ?? "1s"), ("--timeout", timeout ?? "1s"),
        ]
        for (name, value) in timeouts where !value.isPositive {
            throw ValidationError("\(name) must be longer than zero")
        }
        if retries < 1 { throw ValidationError("--retries must be at least 1") }
        try AccessToken.validate(token)
    }

    var configuration: ReliabilityConfiguration {
        // Polling follows seed 003: one safety timeout and nothing else, unless asked otherwise.
        var configuration = transport == .polling ? ReliabilityConfiguration.polling : ReliabilityConfiguration()
        if let timeout { configuration.overallTimeout = timeout.duration }
        if transport != .polling {
            configuration.idleTimeout = idleTimeout.duration
            configuration.byteIdleTimeout = connectionIdleTimeout.duration
            configuration.firstTokenTimeout = (firstTokenTimeout ?? "60s").duration
        }
        configuration.maxAttempts = retries
        return configuration
    }

    /// The transport to the server at `baseURL`, carrying the token when there is one.
    func makeTransport(baseURL: String) -> any ResearchTransport {
        switch transport {
        case .sse: SSETransport(baseURL: baseURL, bearerToken: bearerToken)
        case .websocket: WebSocketTransport(baseURL: baseURL, bearerToken: bearerToken)
        case .polling: PollingTransport(baseURL: baseURL, bearerToken: bearerToken)
        }
    }
}
