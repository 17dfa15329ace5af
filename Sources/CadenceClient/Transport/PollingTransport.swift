public import AsyncHTTPClient
public import CadenceCore
import Foundation
public import Logging
import NIOCore

/// The research protocol over plain HTTP polling (for networks that break streams):
/// `POST /v1/conversations/{id}/messages` starts an answer, then
/// `GET /v1/conversations/{id}/messages?message_id=…&since=N` is polled every ``interval``.
///
/// Transient failures of a poll (connection errors, 408, 429, 5xx) are logged and polling goes on;
/// only the caller's safety timeout ends a stream that never finishes. An empty poll yields
/// ``TransportItem/keepalive``. A gone answer (404, 410) ends the stream with that status.
///
/// ```swift
/// let transport = PollingTransport(baseURL: "http://127.0.0.1:8080", conversationID: "c1")
/// let connection = try await transport.open(AnswerRequest(query: "What is SSE?"), resume: nil)
/// for try await item in connection.items { … }
/// ```
public struct PollingTransport: ResearchTransport {
    public var baseURL: String
    /// The conversation the messages belong to (a new UUID by default); answers are matched by
    /// their message id.
    public var conversationID: String
    /// The wait between polls (2 s by default, as in seed 003).
    public var interval: Duration
    public var clock: any Clock<Duration>
    public var httpClient: HTTPClient
    /// The timeout of each request.
    public var requestTimeout: Duration
    public var logger: Logger
    /// The server's access token, sent as `Authorization: Bearer TOKEN` on every request; a 401
    /// ends the answer at once (it is not polled through like a transient failure).
    public var bearerToken: String?

    public init(
        baseURL: String, conversationID: String? = nil, interval: Duration = .seconds(2),
        clock: any Clock<Duration> = ContinuousClock(), httpClient: HTTPClient = .cadence,
        requestTimeout: Duration = .seconds(30), logger: Logger = Logger(label: "cadence.polling"),
        bearerToken: String? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.conversationID = conversationID ?? UUID().uuidString
        self.interval = interval
        self.clock = clock
        self.httpClient = httpClient
        self.requestTimeout = requestTimeout
        self.logger = logger
        self.bearerToken = bearerToken
    }

    var messagesURL: String { baseURL + "/v1/conversations/\(PercentEncoding.encode(conversationID))/messages" }

    public func cancelAnswer(id: String) async throws {
        try await AnswerCancellation.send(baseURL: baseURL, answerID: id, httpClient: httpClient, bearerToken: bearerToken)
    }

    public func open(_ request: AnswerRequest, resume: ResumeCursor?) async throws -> TransportConnection {
        let messageID: String
        let after: Int
        if let resume {
            (messageID, after) = (resume.answerID, resume.lastSequence)
        } else {
            var post = HTTPClientRequest(url: messagesURL)
            post.method = .POST
            post.headers.add(name: "Content-Type", value: "application/json")
            post.body = .bytes(ByteBuffer(string: request.jsonBody))
            let json = try await send(post)
            guard let id = json["message_id"]?.stringValue else {
                throw CadenceClientError(.malformedEvent, message: "the server's reply has no \"message_id\": \(json.jsonText.prefix(200))")
            }
            (messageID, after) = (id, 0)
        }
        let poller = self
        let items = AsyncThrowingStream<TransportItem, any Error>.producing { emit in
            try await poller.poll(messageID, after: after, emit: emit)
        }
        return TransportConnection(answerID: messageID, items: items)
    }

    /// Polls until the server says the answer is done, or until `emit` says the reader has gone.
    /// The first poll is immediate.
    func poll(_ messageID: String, after: Int, emit: (TransportItem) -> Bool) async throws {
        var cursor = after
        var polls = 0
        var wait = Duration.zero
        while true {
            if polls > 0 { try await clock.sleep(for: wait) }
            polls += 1
            wait = interval
            let json: JSONValue
            do {
                json = try await send(HTTPClientRequest(url: messagesURL + "?message_id=\(PercentEncoding.encode(messageID))&since=\(cursor)"))
            } catch let error as CadenceClientError where error.retryable {
                logger.warning("poll \(polls) of \(messageID) failed, polling on: \(error.message)")
                wait = max(interval, min(error.retryAfter ?? .zero, .seconds(60)))
                continue
            }
            var fresh = 0
            for payload in json["events"]?.arrayValue ?? [] {
                let event: ResearchEvent
                do { event = try ResearchEvent(json: payload) } catch {
                    throw CadenceClientError(.malformedEvent, message: error.description, underlying: error)
                }
                // A late or repeated event is dropped here; the caller's cursor is the sequence.
                guard let sequence = event.sequence, sequence > cursor else { continue }
                cursor = sequence
                fresh += 1
                guard emit(.event(event)) else { return }
            }
            if json["done"]?.boolValue == true { return }
            if fresh == 0, !emit(.keepalive) { return }
        }
    }

    /// Sends one request and returns its JSON body, or throws a ``CadenceClientError``.
    func send(_ request: HTTPClientRequest) async throws -> JSONValue {
        var request = request
        ServerAuthorization.add(bearerToken, to: &request.headers)
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await httpClient.execute(request, timeout: TimeAmount(requestTimeout))
            bytes = try await response.body.collect(upTo: 16 << 20)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CadenceClientError.unreachable(request.url, error)
        }
        let text = String(buffer: bytes)
        if response.status.code == 401 {
            throw ServerAuthorization.unauthorized(tokenSent: bearerToken != nil, body: text)
        }
        guard (200..<300).contains(response.status.code) else {
            throw CadenceClientError.httpStatus(
                Int(response.status.code), reason: response.status.reasonPhrase, body: text,
                retryAfter: RetryAfter.parse(response.headers))
        }
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw CadenceClientError(.malformedEvent, message: "the server's reply is not JSON: \(error)", underlying: error)
        }
    }
}
