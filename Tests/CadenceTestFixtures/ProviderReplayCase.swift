public import CadenceClient
public import CadenceTesting
public import Testing

/// A captured provider stream, replayed by a loopback server at the provider's route: the test
/// double of a hosted model API, for the client's tests and the command's.
public struct ProviderReplayCase: Sendable, CustomTestStringConvertible {
    public var kind: ModelProvider.Kind
    public var fixture: String
    public var route: String
    public var basePath: String
    public var contentType: String
    public init(kind: ModelProvider.Kind, fixture: String, route: String, basePath: String, contentType: String = "text/event-stream") {
        self.kind = kind
        self.fixture = fixture
        self.route = route
        self.basePath = basePath
        self.contentType = contentType
    }

    public var testDescription: String { "\(kind.rawValue): \(fixture)" }

    /// A loopback server that replays the fixture at the provider's route.
    public func replayServer() async throws -> ReplayServer {
        try await ReplayServer.start(routes: [
            route: [.stream(try SharedFixtures.streamBytes(fixture), contentType: contentType)]
        ])
    }

    /// Runs `body` with ``replayServer()`` running, and shuts the server down after.
    public func withReplayServer(_ body: (ReplayServer) async throws -> Void) async throws {
        let server = try await replayServer()
        defer { Task { await server.shutdown() } }
        try await body(server)
    }

    /// The provider, at `server`.
    public func provider(at server: ReplayServer, apiKey: String? = nil) -> ModelProvider {
        ModelProvider(kind: kind, baseURL: server.baseURL + basePath, model: "test-model", apiKey: apiKey)
    }

    /// The first case of each provider.
    public static var onePerProvider: [ProviderReplayCase] {
        all.reduce(into: [ProviderReplayCase]()) { first, next in
            if !first.contains(where: { $0.kind == next.kind }) { first.append(next) }
        }
    }

    /// One capture or two of each provider.
    public static let all: [ProviderReplayCase] = [
        ProviderReplayCase(kind: .openAI, fixture: "openai-chat-basic-usage.txt", route: "/v1/chat/completions", basePath: "/v1"),
        ProviderReplayCase(kind: .openAI, fixture: "deepseek-reasoning-content.txt", route: "/v1/chat/completions", basePath: "/v1"),
        ProviderReplayCase(kind: .anthropic, fixture: "anthropic-basic-text.txt", route: "/v1/messages", basePath: ""),
        ProviderReplayCase(kind: .anthropic, fixture: "anthropic-text-then-tool-use.txt", route: "/v1/messages", basePath: ""),
        ProviderReplayCase(kind: .gemini, fixture: "gemini-basic-short-crlf.txt", route: "/v1beta/models/*", basePath: ""),
        ProviderReplayCase(
            kind: .ollama, fixture: "ollama-generate-ndjson-docs.txt", route: "/api/chat", basePath: "",
            contentType: "application/x-ndjson"),
    ]
}
