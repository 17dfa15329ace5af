import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Streams one HTTP response as events, in order, through AsyncHTTPClient's delegate API.
///
/// Unlike `HTTPClientResponse.Body`, which drops body parts it has received but not yet handed out
/// when the connection then breaks, a delegate sees every part before the error, so a reader gets
/// every byte that arrived before a cut, and resumes exactly after it.
///
/// Made with ``PushedSSEItems``, it hands the body of a 200 response to them, on the event loop,
/// instead of to ``parts`` (which then carries only the head); another status's body, the text of
/// the error, still comes through ``parts``.
final class ResponseStreamDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    enum Part: Sendable {
        case head(HTTPResponseHead)
        case body(ByteBuffer)
    }

    let parts: AsyncThrowingStream<Part, any Error>
    private let continuation: AsyncThrowingStream<Part, any Error>.Continuation
    /// Where a 200 response's body goes; weak, as they own the request this delegate serves.
    private weak let pushedBody: PushedSSEItems?
    /// Whether the body goes to `pushedBody` (set by the head, before any part of the body).
    private let pushing = NIOLockedValueBox(false)

    init(pushingBodyTo pushedBody: PushedSSEItems? = nil) {
        (parts, continuation) = AsyncThrowingStream<Part, any Error>.makeStream()
        self.pushedBody = pushedBody
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if head.status == .ok, pushedBody != nil { pushing.withLockedValue { $0 = true } }
        continuation.yield(.head(head))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        if pushing.withLockedValue({ $0 }) {
            pushedBody?.received(buffer)
        } else {
            continuation.yield(.body(buffer))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        if pushing.withLockedValue({ $0 }) { pushedBody?.bodyEnded(.failure(error)) }
        continuation.finish(throwing: error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        if pushing.withLockedValue({ $0 }) { pushedBody?.bodyEnded(.success(())) }
        continuation.finish()
    }
}
