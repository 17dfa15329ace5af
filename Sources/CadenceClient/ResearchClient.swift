public import AsyncHTTPClient
public import CadenceCore
import Foundation
import NIOCore
import NIOHTTP1

/// Streams answers from a Cadence research server over SSE.
///
/// ```swift
/// let client = ResearchClient(baseURL: "http://127.0.0.1:8080")   // bearerToken: "…" for a server with a token
/// for try await event in client.answer(AnswerRequest(query: "How does resume work?")) {
///     if case .token(let text) = event.kind { print(text, terminator: "") }
/// }
/// ```
///
/// Cancelling the task that iterates the stream closes the connection.
public struct ResearchClient: Sendable {
    public var baseURL: String
    public var httpClient: HTTPClient
    /// How long to wait for the response head.
    public var connectTimeout: Duration
    public var limits: SSELimits
    /// The server's access token, sent as `Authorization: Bearer TOKEN` on every request; `nil` for a
    /// server that needs none. A server that wants one answers 401, which is not retried.
    public var bearerToken: String?

    public init(
        baseURL: String, httpClient: HTTPClient = .shared, connectTimeout: Duration = .seconds(30),
        limits: SSELimits = .default, bearerToken: String? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.httpClient = httpClient
        self.connectTimeout = connectTimeout
        self.limits = limits
        self.bearerToken = bearerToken
    }

    /// Asks a question; the events arrive as the server writes them.
    public func answer(_ request: AnswerRequest) -> ResearchEventStream {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Accept", value: "text/event-stream")
        ServerAuthorization.add(bearerToken, to: &headers)
        return ResearchEventStream(
            request: StreamingRequest(
                httpClient: httpClient, url: baseURL + "/v1/answers", method: .POST, headers: headers,
                body: Self.body(for: request), connectTimeout: TimeAmount(connectTimeout)),
            limits: limits)
    }

    static func body(for request: AnswerRequest) -> String {
        let history: [JSONValue] = request.history.map { ["role": .string($0.role), "content": .string($0.content)] }
        return JSONValue.object(["query": .string(request.query), "history": .array(history)]).jsonText
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
