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

    @Option(name: .long, help: "Seconds without new content before the answer ends with what it has.")
    var idleTimeout: Double = 120

    @Option(name: .long, help: "Seconds to wait for the first token (default 60; 300 when researching with a model, whose planning and searching come first).")
    var firstTokenTimeout: Double?

    /// The first-token timeout when a model plans and searches before it writes: local models can
    /// take minutes over that, while the research stages keep arriving.
    static let modelResearchFirstTokenTimeout: Double = 300

    @Option(name: .long, help: "Seconds an answer may take in all, never reset (default 360; 30 with polling).")
    var timeout: Double?

    @Option(name: .long, help: "Connection attempts in a row without progress before giving up.")
    var retries: Int = 3

    @Option(name: .long, help: "The server's access token, sent as Authorization: Bearer on every request (default: $CADENCE_TOKEN).")
    var token: String?

    /// The token to send: `--token`, else a non-empty `$CADENCE_TOKEN`, else none.
    var bearerToken: String? {
        token ?? ProcessInfo.processInfo.environment["CADENCE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        let timeouts = [("--idle-timeout", idleTimeout), ("--first-token-timeout", firstTokenTimeout ?? 1), ("--timeout", timeout ?? 1)]
        for (name, value) in timeouts where !(value > 0) {
            throw ValidationError("\(name) must be a positive number of seconds")
        }
        if retries < 1 { throw ValidationError("--retries must be at least 1") }
        if token?.isEmpty == true { throw ValidationError("--token must not be empty") }
    }

    var configuration: ReliabilityConfiguration {
        // Polling follows seed 003: one safety timeout and nothing else, unless asked otherwise.
        var configuration = transport == .polling ? ReliabilityConfiguration.polling : ReliabilityConfiguration()
        if let timeout { configuration.overallTimeout = .milliseconds(Int(timeout * 1000)) }
        if transport != .polling {
            configuration.idleTimeout = .milliseconds(Int(idleTimeout * 1000))
            configuration.firstTokenTimeout = .milliseconds(Int((firstTokenTimeout ?? 60) * 1000))
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
