import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Sends one streaming request and reads its body chunk by chunk, turning every failure into a
/// ``CadenceClientError``: a non-200 status (with the body text), an unreachable server, or a
/// connection that breaks mid-stream. Shared by every SSE and NDJSON stream of this module.
struct HTTPBodyReader {
    let httpClient: HTTPClient
    let request: HTTPClientRequest
    let timeout: TimeAmount
    private var body: HTTPClientResponse.Body.AsyncIterator?

    init(_ request: StreamingRequest) {
        self.httpClient = request.httpClient
        self.request = request.request
        self.timeout = request.timeout
    }

    /// The next chunk of the body, or `nil` at its end. The first call sends the request.
    mutating func next() async throws -> ByteBuffer? {
        if body == nil { body = try await connect() }
        do {
            return try await body!.next()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CadenceClientError(
                .transport, message: "the connection failed mid-stream: \(error)", retryable: true, underlying: error)
        }
    }

    private func connect() async throws -> HTTPClientResponse.Body.AsyncIterator {
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(request, timeout: timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CadenceClientError(
                .transport, message: "could not reach \(request.url): \(error)", retryable: true, underlying: error)
        }
        guard response.status == .ok else {
            let bytes = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            throw CadenceClientError.httpStatus(
                Int(response.status.code), reason: response.status.reasonPhrase, body: String(buffer: bytes),
                retryAfter: RetryAfter.parse(response.headers))
        }
        return response.body.makeAsyncIterator()
    }
}

/// Everything needed to send one streaming request; each iteration of a stream sends it anew.
struct StreamingRequest: Sendable {
    let httpClient: HTTPClient
    let request: HTTPClientRequest
    let timeout: TimeAmount
}

/// Reads `retry-after-ms` and `retry-after` (seconds, or an HTTP date) response headers.
enum RetryAfter {
    static func parse(_ headers: HTTPHeaders) -> Duration? {
        if let milliseconds = headers["retry-after-ms"].first.flatMap(Double.init), milliseconds >= 0 {
            return .milliseconds(milliseconds)
        }
        guard let value = headers["retry-after"].first?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return .milliseconds(seconds * 1000) }
        return nil
    }
}
