import AsyncHTTPClient
import NIOCore
package import NIOHTTP1

/// Sends one streaming request and reads its body chunk by chunk, turning every failure into a
/// ``CadenceClientError``: a non-200 status (with the body text), an unreachable server, or a
/// connection that breaks mid-stream. Shared by the research and model streams of this module.
///
/// It reads through ``ResponseStreamDelegate``, which sees every body part that arrived before a
/// broken connection (AsyncHTTPClient's `HTTPClientResponse.Body` may drop some), so a reader keeps
/// every byte that arrived. With ``PushedSSEItems``, a 200 response's body goes to them instead, to
/// be decoded on the event loop as it arrives.
struct HTTPBodyReader {
    let request: StreamingRequest
    private var parts: AsyncThrowingStream<ResponseStreamDelegate.Part, any Error>.AsyncIterator?
    private let pushedBody: PushedSSEItems?
    /// The open request, once ``connect()`` returned: released, it is cancelled.
    private(set) var connection: OpenConnection?

    init(_ request: StreamingRequest, pushingBodyTo pushedBody: PushedSSEItems? = nil) {
        self.request = request
        self.pushedBody = pushedBody
    }

    /// The next chunk of the body, or `nil` at its end. The first call sends the request.
    mutating func next() async throws -> ByteBuffer? {
        if parts == nil { _ = try await connect() }
        let connection = connection
        do {
            let part = try await withTaskCancellationHandler {
                try await parts!.next()
            } onCancel: {
                connection?.cancel()
            }
            try Task.checkCancellation()
            switch part {
            case .body(let buffer)?: return buffer
            case .head?: return ByteBuffer()
            case nil: return nil
            }
        } catch {
            // Cancelling the reader's task cancels the request, which fails with the client's own error.
            if Task.isCancelled { throw CancellationError() }
            throw Self.midStreamError(error)
        }
    }

    /// What a failure of the body after a 200 head is to the reader.
    static func midStreamError(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        return CadenceClientError(
            .transport, message: "the connection failed mid-stream: \(error)", retryable: true, underlying: error)
    }

    /// Sends the request and waits for a 200 response head; returns its headers. Called by the first
    /// ``next()`` when the caller does not need the headers.
    mutating func connect() async throws -> HTTPHeaders {
        let httpRequest: HTTPClient.Request
        do {
            httpRequest = try request.makeRequest()
        } catch {
            throw CadenceClientError(.invalidURL, message: "cannot request \(request.url): \(error)")
        }
        let delegate = ResponseStreamDelegate(pushingBodyTo: pushedBody)
        // Not AsyncHTTPClient's `deadline`: with a delegate it fails the request in any state, so it
        // also cut a body that was still streaming (a research answer resumed every 30 s, a model's
        // answer was truncated after 60 s). The timeout bounds only the wait for the head.
        let task = request.httpClient.execute(request: httpRequest, delegate: delegate)
        let headTimeout = task.eventLoop.scheduleTask(in: request.connectTimeout) {
            task.fail(reason: HTTPClientError.deadlineExceeded)
        }
        defer { headTimeout.cancel() }
        let connection = OpenConnection(task: task)
        self.connection = connection
        var parts = delegate.parts.makeAsyncIterator()
        let head: HTTPResponseHead
        do {
            head = try await withTaskCancellationHandler {
                guard case .head(let head)? = try await parts.next() else {
                    throw CadenceClientError(
                        .transport, message: "\(request.url) closed the connection before answering", retryable: true)
                }
                return head
            } onCancel: {
                connection.cancel()
            }
            try Task.checkCancellation()
        } catch let error as CadenceClientError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw CadenceClientError.unreachable(request.url, error)
        }
        guard head.status == .ok else {
            var body = ByteBuffer()
            while body.readableBytes < 64 << 10, case .body(var part)? = try? await parts.next() {
                body.writeBuffer(&part)
            }
            connection.cancel()
            throw CadenceClientError.httpStatus(
                Int(head.status.code), reason: head.status.reasonPhrase, body: String(buffer: body),
                retryAfter: RetryAfter.parse(head.headers))
        }
        self.parts = parts
        return head.headers
    }
}

/// Cancels the request when the reader that owns it goes away without reading to the end.
final class OpenConnection: Sendable {
    let task: HTTPClient.Task<Void>

    init(task: HTTPClient.Task<Void>) {
        self.task = task
    }

    func cancel() {
        task.cancel()
    }

    deinit {
        task.cancel()
    }
}

/// Everything needed to send one streaming request; each iteration of a stream sends it anew.
struct StreamingRequest: Sendable {
    let httpClient: HTTPClient
    let url: String
    let method: HTTPMethod
    let headers: HTTPHeaders
    let body: String?
    /// How long to wait for the response head; the body then streams for as long as it lasts.
    let connectTimeout: TimeAmount

    func makeRequest() throws -> HTTPClient.Request {
        try HTTPClient.Request(url: url, method: method, headers: headers, body: body.map { .string($0) })
    }

    /// Whether the request carries an `Authorization` header (to say what a 401 means).
    var sendsAuthorization: Bool { headers.contains(name: "Authorization") }
}

/// Reads `retry-after-ms` and `retry-after` (seconds, or an HTTP date) response headers.
package enum RetryAfter {
    package static func parse(_ headers: HTTPHeaders) -> Duration? {
        if let milliseconds = headers["retry-after-ms"].first.flatMap(Double.init), milliseconds >= 0 {
            return .milliseconds(milliseconds)
        }
        guard let value = headers["retry-after"].first?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return .milliseconds(seconds * 1000) }
        return nil
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
