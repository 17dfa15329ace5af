import AsyncHTTPClient
public import CadenceCore
import HTTPTypes
import HummingbirdWSClient
public import Logging
import NIOCore

/// The research protocol over a WebSocket (`GET /v1/answers/ws`): the same events and the same
/// resume as SSE, one JSON text message per event.
///
/// ```swift
/// let transport = WebSocketTransport(baseURL: "http://127.0.0.1:8080")   // bearerToken: "…" for a server with a token
/// let connection = try await transport.open(AnswerRequest(query: "What is SSE?"), resume: nil)
/// for try await item in connection.items {
///     if case .event(let event) = item, case .token(let text) = event.kind { print(text, terminator: "") }
/// }
/// ```
public struct WebSocketTransport: ResearchTransport {
    /// The server's `http://` (or `ws://`) base URL.
    public var baseURL: String
    /// The largest message accepted from the server.
    public var maxMessageBytes: Int
    public var logger: Logger
    /// The server's access token, sent as `Authorization: Bearer TOKEN` with the upgrade request and
    /// the cancelling `DELETE`; a 401 fails at once, without retrying.
    public var bearerToken: String?
    /// How long ``open(_:resume:)`` waits for the server to name the answer: the connection, the
    /// upgrade and the first message. A connection that closes in the middle of the upgrade can
    /// leave the WebSocket client waiting for ever; past this, `open` fails with a retryable
    /// transport error instead. The stream itself is bounded by the reliability engine's timeouts.
    public var connectTimeout: Duration
    /// What ``connectTimeout`` is measured on.
    public var clock: any Clock<Duration>

    public init(
        baseURL: String, maxMessageBytes: Int = 4 << 20, logger: Logger? = nil, bearerToken: String? = nil,
        connectTimeout: Duration = .seconds(30), clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.maxMessageBytes = maxMessageBytes
        self.bearerToken = bearerToken
        self.connectTimeout = connectTimeout
        self.clock = clock
        self.logger = logger ?? {
            var logger = Logger(label: "cadence.websocket")
            logger.logLevel = .warning
            return logger
        }()
    }

    /// `ws://HOST:PORT/v1/answers/ws`.
    var url: String {
        var base = baseURL
        if base.hasPrefix("https://") { base = "wss://" + base.dropFirst("https://".count) }
        if base.hasPrefix("http://") { base = "ws://" + base.dropFirst("http://".count) }
        return base + "/v1/answers/ws"
    }

    public func cancelAnswer(id: String) async throws {
        try await AnswerCancellation.send(
            baseURL: baseURL, answerID: id, httpClient: .cadence, bearerToken: bearerToken)
    }

    public func open(_ request: AnswerRequest, resume: ResumeCursor?) async throws -> TransportConnection {
        let opening: String =
            if let resume {
                JSONValue.object([
                    "resume": ["answer_id": .string(resume.answerID), "last_sequence": .number(Double(resume.lastSequence))]
                ]).jsonText
            } else {
                request.jsonBody
            }
        // The conversation runs in the stream's own task. `open` reads its first arrival, the
        // answer's id, within the connect timeout; the rest is handed on as the items. Whoever drops
        // the arrivals (a timeout, a cancelled `open`, a reader that goes away) ends the task, and
        // so closes the socket.
        let arrivals = AsyncThrowingStream<WebSocketArrival, any Error>.producing { [self] emit in
            try await converse(opening, emit: emit)
        }
        let answerID: String
        do {
            answerID = try await withDeadline(connectTimeout, clock: clock) {
                var named = arrivals.makeAsyncIterator()
                guard case .answerID(let id)? = try await named.next() else {
                    throw WebSocketMessages.closedBeforeAnswer
                }
                return id
            }
        } catch is DeadlineExceeded {
            throw CadenceClientError(
                .transport, message: "the WebSocket at \(url) did not name the answer within \(connectTimeout)",
                retryable: true)
        }
        let items = AsyncThrowingStream<TransportItem, any Error>.producing { emit in
            for try await arrival in arrivals {
                guard case .item(let item) = arrival, emit(item) else { return }
            }
        }
        return TransportConnection(answerID: answerID, items: items)
    }

    /// Sends `opening`, then emits the answer's id and each item as it arrives; throws the close
    /// error, or the refusal, as a ``CadenceClientError``. Returns once the reader has gone.
    private func converse(_ opening: String, emit: @escaping @Sendable (WebSocketArrival) -> Bool) async throws {
        let (url, maxMessageBytes) = (self.url, self.maxMessageBytes)
        do {
            var configuration = WebSocketClientConfiguration()
            configuration.maxFrameSize = maxMessageBytes
            if let bearerToken { configuration.additionalHeaders[.authorization] = "Bearer " + bearerToken }
            let close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                inbound, outbound, _ in
                try await outbound.write(.text(opening))
                var messages = inbound.messages(maxSize: maxMessageBytes).makeAsyncIterator()
                var first = true
                while let message = try await messages.next() {
                    guard case .text(let text) = message else { continue }
                    defer { first = false }
                    guard emit(try WebSocketMessages.arrival(in: text, first: first)) else { return }
                }
            }
            if let error = WebSocketMessages.closeError(close) { throw error }
        } catch {
            if error as? WebSocketClientError == .webSocketUpgradeFailed,
                let refusal = await Self.refusalReason(baseURL: baseURL, bearerToken: bearerToken)
            {
                throw refusal
            }
            throw WebSocketMessages.clientError(error)
        }
    }

    /// Why the server refused the upgrade, when it is the token. The WebSocket client does not say
    /// what status the refusal had, so the same URL is asked once over plain HTTP: a 401 there is a
    /// missing or refused token, reported as such; anything else leaves the upgrade error as it was.
    static func refusalReason(baseURL: String, bearerToken: String?) async -> CadenceClientError? {
        var base = baseURL
        if base.hasPrefix("wss://") { base = "https://" + base.dropFirst("wss://".count) }
        if base.hasPrefix("ws://") { base = "http://" + base.dropFirst("ws://".count) }
        var request = HTTPClientRequest(url: base + "/v1/answers/ws")
        ServerAuthorization.add(bearerToken, to: &request.headers)
        guard let response = try? await HTTPClient.cadence.execute(request, timeout: .seconds(5)),
            response.status.code == 401
        else { return nil }
        let body = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
        return ServerAuthorization.unauthorized(tokenSent: bearerToken != nil, body: body)
    }
}
