public import CadenceCore

/// The research events of one answer, read from one connection of a transport as they arrive.
///
/// Iterating it opens the connection; ending the iteration, or cancelling its task, closes it.
/// Keepalives (comments other than `: flush-tokens`, and `retry:`) are consumed here. A failure is
/// thrown as ``CadenceClientError`` and ends the stream: nothing is resumed or retried (that is
/// ``AnswerStream``'s job).
public struct ResearchEventStream: AsyncSequence, Sendable {
    public typealias Element = ResearchEvent

    let transport: any ResearchTransport
    let request: AnswerRequest

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(transport: transport, request: request)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let transport: any ResearchTransport
        let request: AnswerRequest
        var items: TransportItems.AsyncIterator?

        public mutating func next() async throws -> ResearchEvent? {
            if items == nil { items = try await transport.open(request, resume: nil).items.makeAsyncIterator() }
            while let item = try await items?.next() {
                if case .event(let event) = item { return event }
            }
            return nil
        }
    }
}
