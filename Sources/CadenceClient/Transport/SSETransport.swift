public import AsyncHTTPClient
public import CadenceCore
import NIOCore
import NIOHTTP1

/// The research protocol over Server-Sent Events: `POST /v1/answers` for a new answer, and
/// `GET /v1/answers/{id}/events` with `Last-Event-ID` to resume one.
///
/// ```swift
/// let transport = SSETransport(baseURL: "http://127.0.0.1:8080")
/// let connection = try await transport.open(AnswerRequest(query: "What is SSE?"), resume: nil)
/// for try await item in connection.items {
///     if case .event(let event) = item, case .token(let text) = event.kind { print(text, terminator: "") }
/// }
/// ```
public struct SSETransport: ResearchTransport {
    /// The server, HTTP client and SSE limits to use. (Connecting is bounded by the HTTP client's
    /// connect timeout; the stream itself by the reliability engine's timeouts.)
    public var client: ResearchClient

    public init(client: ResearchClient) {
        self.client = client
    }

    public init(
        baseURL: String, httpClient: HTTPClient = .shared, connectTimeout: Duration = .seconds(30),
        limits: SSELimits = .default
    ) {
        self.init(client: ResearchClient(baseURL: baseURL, httpClient: httpClient, connectTimeout: connectTimeout, limits: limits))
    }

    public func open(_ request: AnswerRequest, resume: ResumeCursor?) async throws -> TransportConnection {
        let httpRequest = try self.httpRequest(request, resume: resume)
        let delegate = ResponseStreamDelegate()
        let task = client.httpClient.execute(request: httpRequest, delegate: delegate)
        var parts = delegate.parts.makeAsyncIterator()
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                guard case .head(let head)? = try await parts.next() else {
                    throw CadenceClientError(.transport, message: "the server closed the connection before answering", retryable: true)
                }
                return head
            } onCancel: {
                task.cancel()
            }
        } catch {
            task.cancel()
            throw Self.connectError(error, url: httpRequest.url.absoluteString)
        }
        guard head.status == .ok else {
            var body = ByteBuffer()
            while case .body(var part)? = try? await parts.next(), body.readableBytes < 64 << 10 { body.writeBuffer(&part) }
            task.cancel()
            throw CadenceClientError.httpStatus(
                Int(head.status.code), reason: head.status.reasonPhrase, body: String(buffer: body),
                retryAfter: RetryAfter.parse(head.headers))
        }
        let answerID = head.headers.first(name: "cadence-answer-id") ?? resume?.answerID
        let transfer = PartsTransfer(parts: parts)
        let limits = client.limits
        let (items, continuation) = AsyncThrowingStream<TransportItem, any Error>.makeStream()
        let pump = Task {
            var parts = transfer.parts
            var decoder = SSEDecoder(limits: limits)
            var sseItems: [SSEItem] = []
            do {
                while let part = try await parts.next() {
                    guard case .body(let chunk) = part else { continue }
                    try chunk.withUnsafeReadableBytes { try decoder.feed($0, into: &sseItems) }
                    try Self.yield(sseItems, to: continuation)
                    sseItems.removeAll(keepingCapacity: true)
                }
                try Self.yield(try decoder.finish(), to: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: Self.clientError(error))
            }
        }
        continuation.onTermination = { _ in
            pump.cancel()
            task.cancel()
        }
        return TransportConnection(answerID: answerID, items: items)
    }

    func httpRequest(_ request: AnswerRequest, resume: ResumeCursor?) throws -> HTTPClient.Request {
        guard let resume else {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Accept", value: "text/event-stream")
            return try HTTPClient.Request(
                url: client.baseURL + "/v1/answers", method: .POST, headers: headers,
                body: .string(ResearchClient.body(for: request)))
        }
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "text/event-stream")
        headers.add(name: "Last-Event-ID", value: String(resume.lastSequence))
        return try HTTPClient.Request(
            url: client.baseURL + "/v1/answers/\(URLPath.escape(resume.answerID))/events", method: .GET, headers: headers)
    }

    static func connectError(_ error: any Error, url: String) -> any Error {
        switch error {
        case is CadenceClientError, is CancellationError: error
        case let error as HTTPClientError where error == .cancelled: CancellationError()
        default:
            CadenceClientError(
                .transport, message: "could not reach \(url): \(error)", retryable: true,
                underlying: error as? any Error & Sendable)
        }
    }

    /// Comments other than `: flush-tokens`, and `retry:`, become ``TransportItem/keepalive``.
    static func yield(_ items: [SSEItem], to continuation: AsyncThrowingStream<TransportItem, any Error>.Continuation) throws {
        for item in items {
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
            CadenceClientError(.transport, message: "the stream failed: \(error)", retryable: true, underlying: error as? any Error & Sendable)
        }
    }
}

/// Hands the response's parts to the task that pumps them; only that task uses them afterwards.
private struct PartsTransfer: @unchecked Sendable {
    var parts: AsyncThrowingStream<ResponseStreamDelegate.Part, any Error>.AsyncIterator
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
