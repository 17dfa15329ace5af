public import AsyncHTTPClient
public import CadenceCore
import NIOCore
import NIOHTTP1

/// The research protocol over Server-Sent Events: `POST /v1/answers` for a new answer, and
/// `GET /v1/answers/{id}/events` with `Last-Event-ID` to resume one.
///
/// ```swift
/// let transport = SSETransport(baseURL: "http://127.0.0.1:8080")   // bearerToken: "…" for a server with a token
/// let connection = try await transport.open(AnswerRequest(query: "What is SSE?"), resume: nil)
/// for try await item in connection.items {
///     if case .event(let event) = item, case .token(let text) = event.kind { print(text, terminator: "") }
/// }
/// ```
public struct SSETransport: ResearchTransport {
    /// The server, HTTP client and SSE limits to use. (Waiting for the response head is bounded by
    /// its `connectTimeout`; the stream itself by the reliability engine's timeouts.)
    public var client: ResearchClient

    public init(client: ResearchClient) {
        self.client = client
    }

    /// - Parameter bearerToken: the server's access token, sent as `Authorization: Bearer TOKEN` on
    ///   every request (the cancelling `DELETE` too); a 401 fails at once, without retrying.
    public init(
        baseURL: String, httpClient: HTTPClient = .shared, connectTimeout: Duration = .seconds(30),
        limits: SSELimits = .default, bearerToken: String? = nil
    ) {
        self.init(
            client: ResearchClient(
                baseURL: baseURL, httpClient: httpClient, connectTimeout: connectTimeout, limits: limits,
                bearerToken: bearerToken))
    }

    public func cancelAnswer(id: String) async throws {
        try await AnswerCancellation.send(
            baseURL: client.baseURL, answerID: id, httpClient: client.httpClient, bearerToken: client.bearerToken)
    }

    public func open(_ request: AnswerRequest, resume: ResumeCursor?) async throws -> TransportConnection {
        var reader = HTTPBodyReader(streamingRequest(request, resume: resume))
        let headers: HTTPHeaders
        do {
            headers = try await reader.connect()
        } catch {
            throw ServerAuthorization.explain(error, tokenSent: client.bearerToken != nil)
        }
        let answerID = headers.first(name: "cadence-answer-id") ?? resume?.answerID
        let transfer = ReaderTransfer(reader: reader)
        let limits = client.limits
        let (items, continuation) = AsyncThrowingStream<TransportItem, any Error>.makeStream()
        let pump = Task {
            var reader = transfer.reader
            var decoder = SSEDecoder(limits: limits)
            var batch = SSEBatch()
            do {
                while let chunk = try await reader.next() {
                    try chunk.withUnsafeReadableBytes { try decoder.feed($0, into: &batch) }
                    try Self.yield(batch, to: continuation)
                    batch.removeAll()
                }
                _ = try decoder.finish()  // dispatches nothing, by the standard; throws a limit error
                continuation.finish()
            } catch {
                continuation.finish(throwing: Self.clientError(error))
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return TransportConnection(answerID: answerID, items: items)
    }

    /// `POST /v1/answers` for a new answer; `GET /v1/answers/{id}/events` with `Last-Event-ID` to resume.
    func streamingRequest(_ request: AnswerRequest, resume: ResumeCursor?) -> StreamingRequest {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "text/event-stream")
        ServerAuthorization.add(client.bearerToken, to: &headers)
        let timeout = TimeAmount(client.connectTimeout)
        guard let resume else {
            headers.add(name: "Content-Type", value: "application/json")
            return StreamingRequest(
                httpClient: client.httpClient, url: client.baseURL + "/v1/answers", method: .POST, headers: headers,
                body: ResearchClient.body(for: request), connectTimeout: timeout)
        }
        headers.add(name: "Last-Event-ID", value: String(resume.lastSequence))
        return StreamingRequest(
            httpClient: client.httpClient, url: client.baseURL + "/v1/answers/\(URLPath.escape(resume.answerID))/events",
            method: .GET, headers: headers, body: nil, connectTimeout: timeout)
    }

    /// Comments other than `: flush-tokens`, and `retry:`, become ``TransportItem/keepalive``.
    static func yield(_ batch: SSEBatch, to continuation: AsyncThrowingStream<TransportItem, any Error>.Continuation) throws {
        for item in batch {
            if let event = try ResearchEventDecoder.decode(item) {
                continuation.yield(.event(event))
            } else {
                continuation.yield(.keepalive)
            }
        }
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

/// Hands the connected reader to the task that pumps it; only that task uses it afterwards.
private struct ReaderTransfer: @unchecked Sendable {
    var reader: HTTPBodyReader
}

/// Percent-escapes a path segment (ids are URL-safe in practice; this keeps odd ones harmless).
enum URLPath {
    static func escape(_ segment: String) -> String {
        var result = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
