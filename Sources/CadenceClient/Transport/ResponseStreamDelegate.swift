import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Streams one HTTP response as events, in order, through AsyncHTTPClient's delegate API.
///
/// Unlike `HTTPClientResponse.Body`, which drops body parts it has received but not yet handed out
/// when the connection then breaks, a delegate sees every part before the error, so a reader gets
/// every byte that arrived before a cut, and resumes exactly after it.
final class ResponseStreamDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    enum Part: Sendable {
        case head(HTTPResponseHead)
        case body(ByteBuffer)
    }

    let parts: AsyncThrowingStream<Part, any Error>
    private let continuation: AsyncThrowingStream<Part, any Error>.Continuation

    init() {
        (parts, continuation) = AsyncThrowingStream<Part, any Error>.makeStream()
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        continuation.yield(.head(head))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        continuation.yield(.body(buffer))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        continuation.finish(throwing: error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        continuation.finish()
    }
}
