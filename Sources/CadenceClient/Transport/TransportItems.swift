import CadenceCore
import NIOConcurrencyHelpers

/// What one connection delivers, in order: ends when the connection closes cleanly, throws when it
/// breaks. Read it once.
///
/// A transport that decodes its connection itself (``SSETransport``) hands over items that its
/// event loop decodes as the bytes arrive: iterated, they come through one stream; read with
/// `deliver(to:)` (as ``AnswerStream`` does), each is handed over where it was decoded, with no
/// task in between. Any other transport hands over a stream its own task fills.
public struct TransportItems: AsyncSequence, Sendable {
    public typealias Element = TransportItem

    private enum Source {
        case stream(AsyncThrowingStream<TransportItem, any Error>)
        case pushed(PushedSSEItems)
    }

    /// The source, handed to the first reader only: a connection is read once.
    private let source: NIOLockedValueBox<Source?>

    /// Items that a task of the transport's own yields into `stream`.
    public init(_ stream: AsyncThrowingStream<TransportItem, any Error>) {
        source = NIOLockedValueBox(.stream(stream))
    }

    init(_ pushed: PushedSSEItems) {
        source = NIOLockedValueBox(.pushed(pushed))
    }

    private func take() -> Source? {
        source.withLockedValue { source -> Source? in
            defer { source = nil }
            return source
        }
    }

    /// Hands every item to `body` as it is decoded (pushed items: on the thread that decoded it, so
    /// `body` must be quick and must not block), and returns when the connection closes cleanly;
    /// throws when it breaks, or `CancellationError` when the calling task is cancelled.
    package func deliver(to body: @escaping @Sendable (TransportItem) -> Void) async throws {
        switch take() {
        case .stream(let stream):
            for try await item in stream { body(item) }
        case .pushed(let pushed):
            try await Self.deliver(pushed, to: body)
        case nil:
            return
        }
    }

    private static func deliver(
        _ pushed: PushedSSEItems, to body: @escaping @Sendable (TransportItem) -> Void
    ) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (ended: CheckedContinuation<Void, any Error>) in
                pushed.attach { event in
                    switch event {
                    case .item(let item): body(item)
                    case .end(nil): ended.resume()
                    case .end(let error?): ended.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            pushed.cancel()
        }
    }

    /// Iterated, pushed items come through one stream: the event loop yields each into it as it is
    /// decoded, and a task waits for the end (`AsyncThrowingStream.producing`, whose consumer
    /// going away cancels the items).
    public func makeAsyncIterator() -> AsyncIterator {
        switch take() {
        case .stream(let stream):
            return AsyncIterator(stream.makeAsyncIterator())
        case .pushed(let pushed):
            let stream = AsyncThrowingStream<TransportItem, any Error>.producing { emit in
                try await Self.deliver(pushed) { _ = emit($0) }
            }
            return AsyncIterator(stream.makeAsyncIterator())
        case nil:
            return AsyncIterator(nil)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private var stream: AsyncThrowingStream<TransportItem, any Error>.AsyncIterator?

        init(_ stream: AsyncThrowingStream<TransportItem, any Error>.AsyncIterator?) { self.stream = stream }

        public mutating func next() async throws -> TransportItem? {
            try await stream?.next()
        }
    }
}
