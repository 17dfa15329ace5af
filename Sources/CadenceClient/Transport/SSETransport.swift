public import AsyncHTTPClient
public import CadenceCore
import NIOCore
import NIOHTTP1

/// The research protocol over Server-Sent Events: `POST /v1/answers` for a new answer, and
/// `GET /v1/answers/{id}/events` with `Last-Event-ID` to resume one.
///
/// This is the one SSE path of the client: ``AnswerStream`` drives it (resume, retry, timeouts), and
/// ``answer(_:)`` reads one connection of it as raw events.
///
/// ```swift
/// let transport = SSETransport(baseURL: "http://127.0.0.1:8080")   // bearerToken: "…" for a server with a token
/// let connection = try await transport.open(AnswerRequest(query: "What is SSE?"), resume: nil)
/// for try await item in connection.items {
///     if case .event(let event) = item, case .token(let text) = event.kind { print(text, terminator: "") }
/// }
/// ```
public struct SSETransport: ResearchTransport {
    /// The server, without a trailing slash.
    public var baseURL: String
    public var httpClient: HTTPClient
    /// How long to wait for the response head; the stream itself is bounded by the reliability
    /// engine's timeouts.
    public var connectTimeout: Duration
    /// The SSE decoder's limits on one line and one event.
    public var limits: SSELimits
    /// The server's access token, sent as `Authorization: Bearer TOKEN` on every request (the
    /// cancelling `DELETE` too); `nil` for a server that needs none. A 401 fails at once, without retrying.
    public var bearerToken: String?

    public init(
        baseURL: String, httpClient: HTTPClient = .cadence, connectTimeout: Duration = .seconds(30),
        limits: SSELimits = .default, bearerToken: String? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.httpClient = httpClient
        self.connectTimeout = connectTimeout
        self.limits = limits
        self.bearerToken = bearerToken
    }

    public func cancelAnswer(id: String) async throws {
        try await AnswerCancellation.send(
            baseURL: baseURL, answerID: id, httpClient: httpClient, bearerToken: bearerToken)
    }

    public func open(_ request: AnswerRequest, resume: ResumeCursor?) async throws -> TransportConnection {
        let items = PushedSSEItems(limits: limits)
        var reader = HTTPBodyReader(streamingRequest(request, resume: resume), pushingBodyTo: items)
        let headers: HTTPHeaders
        do {
            headers = try await reader.connect()
        } catch {
            throw ServerAuthorization.explain(error, tokenSent: bearerToken != nil)
        }
        items.keepOpen(reader.connection)
        let answerID = headers.first(name: "cadence-answer-id") ?? resume?.answerID
        return TransportConnection(answerID: answerID, items: TransportItems(items))
    }

    /// `POST /v1/answers` for a new answer; `GET /v1/answers/{id}/events` with `Last-Event-ID` to resume.
    func streamingRequest(_ request: AnswerRequest, resume: ResumeCursor?) -> StreamingRequest {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "text/event-stream")
        ServerAuthorization.add(bearerToken, to: &headers)
        let timeout = TimeAmount(connectTimeout)
        guard let resume else {
            headers.add(name: "Content-Type", value: "application/json")
            return StreamingRequest(
                httpClient: httpClient, url: baseURL + "/v1/answers", method: .POST, headers: headers,
                body: request.jsonBody, connectTimeout: timeout)
        }
        headers.add(name: "Last-Event-ID", value: String(resume.lastSequence))
        return StreamingRequest(
            httpClient: httpClient, url: baseURL + "/v1/answers/\(PercentEncoding.encode(resume.answerID))/events",
            method: .GET, headers: headers, body: nil, connectTimeout: timeout)
    }

    static func clientError(_ error: any Error) -> any Error {
        switch error {
        case let error as CadenceClientError: error
        case let error as SSEDecoderError: CadenceClientError(.malformedStream, message: error.description, underlying: error)
        case let error as ResearchDecodingError:
            CadenceClientError(.malformedEvent, message: error.description, underlying: error)
        case is CancellationError: error
        default:
            CadenceClientError(.transport, message: "the stream failed: \(error)", retryable: true, underlying: error)
        }
    }
}
