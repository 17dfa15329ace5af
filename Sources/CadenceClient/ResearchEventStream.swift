import AsyncHTTPClient
public import CadenceCore
import NIOCore
import NIOHTTP1

/// The research events of one answer, read from an SSE response body as it arrives.
///
/// Iterating it sends the request; ending the iteration, or cancelling its task, closes the
/// connection. Comments other than `: flush-tokens` are consumed here.
public struct ResearchEventStream: AsyncSequence, Sendable {
    public typealias Element = ResearchEvent

    let request: StreamingRequest
    let limits: SSELimits

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var reader: HTTPBodyReader
        var decoder: SSEDecoder
        var batch = SSEBatch()
        var pending: [ResearchEvent] = []
        var pendingIndex = 0
        var finished = false

        init(stream: ResearchEventStream) {
            reader = HTTPBodyReader(stream.request)
            decoder = SSEDecoder(limits: stream.limits)
        }

        public mutating func next() async throws -> ResearchEvent? {
            while true {
                if pendingIndex < pending.count {
                    defer { pendingIndex += 1 }
                    return pending[pendingIndex]
                }
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
                if finished { return nil }
                batch.removeAll()
                do {
                    let chunk: ByteBuffer?
                    do {
                        chunk = try await reader.next()
                    } catch {
                        finished = true
                        throw ServerAuthorization.explain(error, tokenSent: reader.request.sendsAuthorization)
                    }
                    if let chunk {
                        try chunk.withUnsafeReadableBytes { try decoder.feed($0, into: &batch) }
                    } else {
                        finished = true
                        _ = try decoder.finish()  // dispatches nothing, by the standard; throws a limit error
                    }
                } catch let error as SSEDecoderError {
                    finished = true
                    throw CadenceClientError(.malformedStream, message: error.description, underlying: error)
                }
                for item in batch {
                    do {
                        if let event = try ResearchEventDecoder.decode(item) { pending.append(event) }
                    } catch {
                        finished = true
                        throw CadenceClientError(.malformedEvent, message: error.description, underlying: error)
                    }
                }
            }
        }
    }
}
