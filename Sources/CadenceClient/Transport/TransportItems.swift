import CadenceCore
import NIOConcurrencyHelpers

/// What one connection delivers, in order: ends when the connection closes cleanly, throws when it
/// breaks. Read it once.
///
/// A transport that decodes its connection itself (``SSETransport``) hands over a reader: the items
/// are read and decoded by whoever iterates them, in that task, with no task of the transport's own
/// in between. Any other transport hands over a stream its own task fills.
public struct TransportItems: AsyncSequence, Sendable {
    public typealias Element = TransportItem

    private enum Source {
        case stream(AsyncThrowingStream<TransportItem, any Error>)
        case reader(SSEItemReader)
    }

    /// The source, handed to the first iterator only: a connection is read once.
    private let source: NIOLockedValueBox<Source?>

    /// Items that a task of the transport's own yields into `stream`.
    public init(_ stream: AsyncThrowingStream<TransportItem, any Error>) {
        source = NIOLockedValueBox(.stream(stream))
    }

    init(_ reader: SSEItemReader) {
        source = NIOLockedValueBox(.reader(reader))
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let taken = source.withLockedValue { source -> Source? in
            defer { source = nil }
            return source
        }
        switch taken {
        case .stream(let stream): return AsyncIterator(.stream(stream.makeAsyncIterator()))
        case .reader(let reader): return AsyncIterator(.reader(reader))
        case nil: return AsyncIterator(.ended)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        enum State {
            case stream(AsyncThrowingStream<TransportItem, any Error>.AsyncIterator)
            case reader(SSEItemReader)
            case ended
        }

        private var state: State

        init(_ state: State) { self.state = state }

        public mutating func next() async throws -> TransportItem? {
            switch state {
            case .stream(var iterator):
                defer { state = .stream(iterator) }
                return try await iterator.next()
            case .reader(var reader):
                state = .ended
                defer { state = .reader(reader) }
                return try await reader.next()
            case .ended:
                return nil
            }
        }
    }
}

/// Reads a Server-Sent Events body and decodes it into ``TransportItem``s in the task that asks
/// for them: a chunk at a time, each chunk's events handed out in order. Events decoded before a
/// malformed one, or before a limit was passed, are handed out before the error.
struct SSEItemReader: @unchecked Sendable {
    // Unchecked: the reader's parts iterator is used by one task at a time, the one iterating the
    // items (`TransportItems` hands the reader to its first iterator only).
    private var reader: HTTPBodyReader
    private var decoder: SSEDecoder
    private var batch = SSEBatch()
    private var pending: [TransportItem] = []
    private var nextPending = 0
    private var failure: (any Error)?
    private var ended = false

    init(reader: HTTPBodyReader, limits: SSELimits) {
        self.reader = reader
        self.decoder = SSEDecoder(limits: limits)
    }

    mutating func next() async throws -> TransportItem? {
        while true {
            if nextPending < pending.count {
                defer { nextPending += 1 }
                return pending[nextPending]
            }
            if let failure {
                self.failure = nil
                ended = true
                throw SSETransport.clientError(failure)
            }
            if ended { return nil }
            pending.removeAll(keepingCapacity: true)
            nextPending = 0
            do {
                guard let chunk = try await reader.next() else {
                    ended = true
                    _ = try decoder.finish()  // dispatches nothing, by the standard; throws a limit error
                    return nil
                }
                do {
                    try chunk.withUnsafeReadableBytes { try decoder.feed($0, into: &batch) }
                } catch {
                    failure = error
                }
                defer { batch.removeAll() }
                for item in batch {
                    do {
                        pending.append(try ResearchEventDecoder.decode(item).map(TransportItem.event) ?? .keepalive)
                    } catch {
                        failure = error
                        break
                    }
                }
            } catch {
                ended = true
                throw SSETransport.clientError(error)
            }
        }
    }
}
