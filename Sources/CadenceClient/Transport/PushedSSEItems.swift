import CadenceCore
import NIOConcurrencyHelpers
import NIOCore

/// The items of one Server-Sent Events connection, decoded on the event loop as the body's parts
/// arrive and handed straight to the one reader that attached (``attach(_:)``): no task of its own
/// and no stream between the socket and the reader, so a token wakes one task fewer on its way.
///
/// Parts that arrive before a reader attaches wait, undecoded, until it does. The reader gets every
/// item in order, then exactly one end: `nil` when the body ended cleanly, else the error (a
/// ``CadenceClientError``, or `CancellationError` after ``cancel()``). Items decoded before a
/// malformed event, or before a limit was passed, come before that error.
final class PushedSSEItems: Sendable {
    /// What the attached reader is handed.
    enum Event: Sendable {
        case item(TransportItem)
        case end((any Error)?)
    }

    typealias Reader = @Sendable (Event) -> Void

    private struct State: Sendable {
        var decoder: SSEDecoder
        var batch = SSEBatch()
        /// Parts that arrived before a reader attached.
        var waiting: [ByteBuffer] = []
        /// How the body ended, while no reader is attached to be told.
        var bodyEnd: Result<Void, any Error>?
        var reader: Reader?
        /// Whether the one end went out (or is due to the reader that attaches).
        var ended = false
        /// The end for a reader that attaches after it: only a cancellation ends before one does.
        var endBeforeReader: (any Error)?
        /// Holds the request open; released (which cancels it if it still runs) at the end.
        var connection: OpenConnection?
    }

    private let state: NIOLockedValueBox<State>

    init(limits: SSELimits) {
        state = NIOLockedValueBox(State(decoder: SSEDecoder(limits: limits)))
    }

    /// Keeps the request open until the items end or are dropped.
    func keepOpen(_ connection: OpenConnection?) {
        state.withLockedValue { $0.connection = connection }
    }

    /// A part of the body (on the event loop).
    func received(_ buffer: ByteBuffer) {
        let end = state.withLockedValue { state -> Ending? in
            guard !state.ended else { return nil }
            guard let reader = state.reader else {
                state.waiting.append(buffer)
                return nil
            }
            return Self.decode(buffer, into: &state, reader: reader)
        }
        end?.send()
    }

    /// The body ended, cleanly or with `result`'s error (on the event loop).
    func bodyEnded(_ result: Result<Void, any Error>) {
        let end = state.withLockedValue { state -> Ending? in
            guard !state.ended else { return nil }
            guard state.reader != nil else {
                state.bodyEnd = result
                return nil
            }
            return Self.finish(result, in: &state)
        }
        end?.send()
    }

    /// Attaches the one reader: what waited is decoded and handed to it now, the rest as it arrives.
    func attach(_ reader: @escaping Reader) {
        let end = state.withLockedValue { state -> Ending? in
            precondition(state.reader == nil, "a connection's items are read once")
            if state.ended {
                return Ending(reader: reader, error: state.endBeforeReader, connection: nil)
            }
            state.reader = reader
            let waiting = state.waiting
            state.waiting = []
            for buffer in waiting {
                if let end = Self.decode(buffer, into: &state, reader: reader) { return end }
            }
            return state.bodyEnd.map { Self.finish($0, in: &state) }
        }
        end?.send()
    }

    /// Stops handing out items: the reader (now or when it attaches) is handed a `CancellationError`,
    /// and the request is cancelled.
    func cancel() {
        let end = state.withLockedValue { state -> Ending? in
            guard !state.ended else { return Ending(reader: nil, error: nil, connection: state.connection.take()) }
            state.ended = true
            state.waiting = []
            state.endBeforeReader = CancellationError()
            return Ending(reader: state.reader.take(), error: CancellationError(), connection: state.connection.take())
        }
        end?.send()
    }

    /// The end, handed out after the lock is released: the reader may finish a stream whose
    /// termination handler cancels these items, and cancelling the request may call back into them.
    private struct Ending {
        let reader: Reader?
        let error: (any Error)?
        let connection: OpenConnection?

        func send() {
            reader?(.end(error))
            connection?.cancel()
        }
    }

    /// Decodes one part and hands its items to `reader`; returns the end if the part was malformed.
    private static func decode(_ buffer: ByteBuffer, into state: inout State, reader: Reader) -> Ending? {
        var failure: (any Error)?
        do {
            try buffer.withUnsafeReadableBytes { try state.decoder.feed($0, into: &state.batch) }
        } catch {
            failure = error
        }
        for item in state.batch {
            do {
                reader(.item(try ResearchEventDecoder.decode(item).map(TransportItem.event) ?? .keepalive))
            } catch {
                failure = error
                break
            }
        }
        state.batch.removeAll()
        guard let failure else { return nil }
        return end(SSETransport.clientError(failure), in: &state)
    }

    private static func finish(_ result: Result<Void, any Error>, in state: inout State) -> Ending {
        switch result {
        case .success:
            do {
                _ = try state.decoder.finish()  // dispatches nothing, by the standard; throws a limit error
                return end(nil, in: &state)
            } catch {
                return end(SSETransport.clientError(error), in: &state)
            }
        case .failure(let error):
            return end(HTTPBodyReader.midStreamError(error), in: &state)
        }
    }

    private static func end(_ error: (any Error)?, in state: inout State) -> Ending {
        state.ended = true
        return Ending(reader: state.reader.take(), error: error, connection: state.connection.take())
    }
}
