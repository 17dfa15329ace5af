public import CadenceEngine
import CadenceClient
import CadenceCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// Cadence's reference server: the research protocol over HTTP, answered by an `AnswerEngine`.
///
/// ```swift
/// let server = ReferenceServer(engine: CorpusEngine(corpus: try .bundled()))
/// let running = try await server.start()
/// print("listening on http://127.0.0.1:\(running.port)")
/// // …
/// await running.shutdown()
/// ```
public struct ReferenceServer: Sendable {
    public var configuration: ServerConfiguration
    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let logger: Logger

    public init(
        engine: any AnswerEngine,
        configuration: ServerConfiguration = ServerConfiguration(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.engine = engine
        self.configuration = configuration
        self.clock = clock
        var logger = Logger(label: "cadence.server")
        logger.logLevel = ProcessInfo.processInfo.environment["CADENCE_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        self.logger = logger
    }

    /// Starts the server and returns once it accepts connections.
    ///
    /// - Parameter handlingSignals: stop gracefully on SIGINT and SIGTERM (for `cadence serve`).
    public func start(handlingSignals: Bool = false) async throws -> RunningServer {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let metrics = ServerMetrics()
        let jwt = try await makeJWTVerifier()
        let requestGuard = try RequestGuard(configuration: configuration, metrics: metrics, jwt: jwt, clock: clock)
        let registry = try await makeRegistry(metrics: metrics)
        let feed = AnswerFeed(registry: registry, keepAliveInterval: configuration.keepAliveInterval)
        let keyRefresh = jwt.flatMap { JWTKeySource.refreshing($0, clock: clock, logger: logger) }
        let webSocketResponder = makeWebSocketRouter(registry: registry, feed: feed, metrics: metrics).buildResponder()
        let application = Application(
            router: makeRouter(registry: registry, feed: feed, metrics: metrics),
            server: HTTPServerBuilder { [logger] responder in
                let childChannel = requestGuard.guarding(
                    HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder, configuration: .init()))
                // Before the port is bound: see `GuardedChildChannel.warmUp` for the crash it prevents.
                try childChannel.warmUp(logger: logger)
                return childChannel
            },
            // `maxConnections` counts busy connections only, in the request guard: Hummingbird's
            // `MaximumAvailableConnections` counts every open one, so idle sockets could fill it.
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [application],
                gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [],
                logger: logger))
        let task = Task {
            defer {
                portContinuation.finish()
                keyRefresh?.cancel()
            }
            try await group.run()
        }
        for await port in ports {
            return RunningServer(
                host: configuration.host, port: port, group: group, task: task, registry: registry, metrics: metrics)
        }
        // The server stopped before it listened: surface why, naming the address (a bind error alone
        // reads "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)").
        let address = "\(configuration.host):\(configuration.port)"
        do {
            try await task.value
        } catch {
            throw ServerStartError(message: "cannot listen on \(address): \(SystemErrorText.describe(error))")
        }
        throw ServerStartError(message: "the server stopped before it accepted connections")
    }

    /// The verifier of ``ServerConfiguration/jwt``, with its keys loaded, or `nil` without it.
    func makeJWTVerifier() async throws -> JWTVerifier? {
        guard let jwt = configuration.jwt else { return nil }
        guard configuration.token == nil else {
            throw ServerStartError(message: "a server verifies JSON Web Tokens or one static token, not both")
        }
        do {
            return try await JWTKeySource.verifier(for: jwt)
        } catch {
            throw ServerStartError(message: "cannot verify JSON Web Tokens: \(error)")
        }
    }

    /// The in-memory registry, or with ``ServerConfiguration/postgres`` the shared one (connected,
    /// migrated and listening before the server accepts connections).
    func makeRegistry(metrics: ServerMetrics) async throws -> any AnswerRegistry {
        let admission = AnswerAdmission(limit: configuration.maxAnswers, perSubjectLimit: configuration.maxAnswersPerSubject)
        var engine = self.engine
        if let limit = configuration.maxAnswerTime { engine = engine.timeBudgeted(limit, clock: clock) }
        guard let postgres = configuration.postgres else {
            return MemoryAnswerRegistry(
                engine: engine.observed(by: metrics), clock: clock, limits: configuration.replay, admission: admission, metrics: metrics)
        }
        return try await PostgresAnswerRegistry.start(
            engine: engine.observed(by: metrics), clock: clock, configuration: postgres, limits: configuration.replay, admission: admission,
            metrics: metrics, logger: logger)
    }

    func makeRouter(registry: any AnswerRegistry, feed: AnswerFeed, metrics: ServerMetrics) -> Router<BasicRequestContext> {
        let router = Router()
        let responder = AnswerStreamResponder(feed: feed, metrics: metrics)
        let limits = configuration
        router.get("/healthz") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}\n")))
        }
        router.post("/v1/answers") { request, _ -> Response in
            let subject = try Self.subject(of: request)
            let answerRequest = try await Self.decodeAnswerRequest(request, limits: limits)
            let id = try await registry.start(answerRequest, for: subject)
            return responder.response(answerID: id, after: 0, resumed: false)
        }
        router.get("/v1/answers/:id/events") { request, context -> Response in
            let id = try context.parameters.require("id")
            let (after, resumed) = try Self.resumeCursor(of: request)
            try await registry.check(id, of: Self.subject(of: request), after: after)
            return responder.response(answerID: id, after: after, resumed: resumed)
        }
        router.delete("/v1/answers/:id") { request, context -> Response in
            try await Self.cancel(context.parameters.require("id"), request: request, registry: registry)
        }
        Self.addConversationRoutes(to: router, registry: registry, limits: limits)
        ChatCompletionRoutes(registry: registry, feed: feed, metrics: metrics, limits: limits).add(to: router)
        Self.addMetricsRoute(to: router, metrics: metrics)
        return router
    }

    /// The cursor a resuming reader sent, `Last-Event-ID` or else `?after=` (0 without either), and
    /// whether it sent one (for the metrics).
    static func resumeCursor(of request: Request) throws -> (after: Int, resumed: Bool) {
        let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!]
        let after = try cursor(lastEventID ?? request.uri.queryParameters.get("after"), name: "Last-Event-ID")
        return (after, lastEventID != nil || after > 0)
    }

    /// Cancels the sender's answer `id` (`DELETE`): 200 `{"id", "status": "cancelled"}`, or 409 if it
    /// had already ended.
    static func cancel(_ id: String, request: Request, registry: any AnswerRegistry) async throws -> Response {
        guard try await registry.cancel(id, of: subject(of: request)) else {
            throw APIError(
                status: .conflict, code: "answer_finished",
                message: "the answer \"\(id)\" has already ended; there is nothing to cancel")
        }
        return json(["id": .string(id), "status": "cancelled"])
    }

    func makeWebSocketRouter(
        registry: any AnswerRegistry, feed: AnswerFeed, metrics: ServerMetrics
    ) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let handler = AnswerWebSocketHandler(registry: registry, feed: feed, limits: configuration, metrics: metrics)
        router.ws("/v1/answers/ws") { inbound, outbound, context in
            try await handler.handle(inbound, outbound, subject: Self.subject(of: context.request))
        }
        return router
    }

    /// The subject the connection guard verified and set on the request (``Authenticator/head(_:subject:)``);
    /// the guard sets it on every request it passes to a route, so a request without it is refused.
    static func subject(of request: Request) throws -> String {
        guard let name = HTTPField.Name(Authenticator.subjectHeader), let value = request.headers[name],
            let subject = Authenticator.decoded(value)
        else {
            throw APIError.unauthorized("the request has no verified sender")
        }
        return subject
    }

    static func decodeAnswerRequest(_ request: Request, limits: ServerConfiguration) async throws -> AnswerRequest {
        try await validate(data: body(of: request, limits: limits), limits: limits)
    }

    /// The request's body, up to the server's limit (413 past it).
    static func body(of request: Request, limits: ServerConfiguration) async throws -> Data {
        var request = request
        do {
            return Data(buffer: try await request.collectBody(upTo: limits.maxRequestBytes))
        } catch {
            throw APIError.tooLarge("the request body is larger than \(limits.maxRequestBytes) bytes")
        }
    }

    /// Decodes and checks a JSON `AnswerRequest` body, throwing a 400 or 413 that says what is wrong.
    static func validate(data: Data, limits: ServerConfiguration) throws -> AnswerRequest {
        let answerRequest: AnswerRequest
        do {
            answerRequest = try JSONDecoder().decode(AnswerRequest.self, from: data)
        } catch {
            throw APIError.badRequest(
                "the body must be JSON {\"query\": string, \"history\": [{\"role\", \"content\"}]}: \(Self.describe(error))")
        }
        return try checked(answerRequest, limits: limits)
    }

    /// The request with its query trimmed, if the query is not empty and within the limit
    /// (400, 413 otherwise): the same checks for every route that starts an answer.
    static func checked(_ answerRequest: AnswerRequest, limits: ServerConfiguration) throws -> AnswerRequest {
        let query = answerRequest.query.trimmingCharacters(in: .whitespacesAndNewlines)
        if query.isEmpty { throw APIError.badRequest("the query is empty") }
        if query.count > limits.maxQueryCharacters {
            throw APIError.tooLarge("the query has \(query.count) characters; the limit is \(limits.maxQueryCharacters)")
        }
        var answerRequest = answerRequest
        answerRequest.query = query
        return answerRequest
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case .dataCorrupted: "it is not valid JSON"
        default: String(describing: error)
        }
    }
}

/// A server that is accepting connections.
public struct RunningServer: Sendable {
    public let host: String
    public let port: Int
    let group: ServiceGroup
    let task: Task<Void, any Error>
    let registry: any AnswerRegistry
    /// This server's counters, served at `GET /metrics`.
    let metrics: ServerMetrics

    /// `http://HOST:PORT`.
    public var baseURL: String { "http://\(host):\(port)" }

    /// Stops accepting connections, ends the answers still being produced (their streams end
    /// abruptly, so clients can tell), lets other requests finish, closes the connections that have
    /// not sent a whole request yet, and waits for the server to stop.
    public func shutdown() async {
        await registry.shutdown()
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    /// Waits until the server stops (for example on SIGINT or SIGTERM).
    public func wait() async throws {
        try await task.value
    }
}

/// The server could not start.
public struct ServerStartError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
