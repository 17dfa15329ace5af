public import CadenceCore
import NIOConcurrencyHelpers

/// The updates of one ``AnswerStream``, from its driver to its one reader: unbounded, in order, and
/// ended by the driver (``finish()``) or by the reader going away (``cancel()``).
///
/// `AsyncStream`'s iterator leaves the reader's actor to wait for every element (its storage's
/// `next()` runs on the shared thread pool), so each update cost a reader on the main actor three
/// jobs: the hop off, the resumption on the pool, the hop back. Here the reader waits in its own
/// isolation, and an update costs two (the resumption, then the hop to the reader's executor).
final class AnswerUpdateChannel: Sendable {
    private struct State: Sendable {
        var buffer: [AnswerUpdate] = []
        var nextIndex = 0
        var waiter: UnsafeContinuation<AnswerUpdate?, Never>?
        /// No more updates are taken: the driver finished, or the reader went away.
        var finished = false
        var cancelled = false
        /// Cancels the driver once the reader went away.
        var onCancel: (@Sendable () -> Void)?
    }

    private let state = NIOLockedValueBox(State())

    /// Hands `update` to the reader; false once the reader went away.
    @discardableResult
    func yield(_ update: AnswerUpdate) -> Bool {
        let waiter = state.withLockedValue { state -> UnsafeContinuation<AnswerUpdate?, Never>?? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter.take() { return waiter }
            state.buffer.append(update)
            return .some(nil)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: update)
        return true
    }

    /// No more updates: the reader gets what is buffered, then the end.
    func finish() {
        let waiter = state.withLockedValue { state in
            state.finished = true
            state.onCancel = nil
            return state.waiter.take()
        }
        waiter?.resume(returning: nil)
    }

    /// The reader went away: updates are dropped from now on, and the driver is cancelled.
    func cancel() {
        let (waiter, onCancel) = state.withLockedValue { state in
            state.finished = true
            state.cancelled = true
            state.buffer = []
            state.nextIndex = 0
            return (state.waiter.take(), state.onCancel.take())
        }
        waiter?.resume(returning: nil)
        onCancel?()
    }

    /// Sets what cancels the driver; runs it at once if the reader already went away.
    func onCancel(_ cancel: @escaping @Sendable () -> Void) {
        let cancelled = state.withLockedValue { state in
            if !state.cancelled { state.onCancel = cancel }
            return state.cancelled
        }
        if cancelled { cancel() }
    }

    /// The next update, or `nil` at the end; waits in the caller's isolation.
    func next(isolation actor: isolated (any Actor)?) async -> AnswerUpdate? {
        if let ready = take() { return ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { continuation in
                let ready = state.withLockedValue { state -> AnswerUpdate?? in
                    if let update = Self.take(&state) { return update }
                    if state.finished { return .some(nil) }
                    precondition(state.waiter == nil, "an answer's updates have one reader at a time")
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// A buffered update, or the end (`.some(nil)`), without waiting; `nil` if the reader must wait.
    private func take() -> AnswerUpdate?? {
        state.withLockedValue { state in
            if let update = Self.take(&state) { return update }
            return state.finished ? .some(nil) : nil
        }
    }

    private static func take(_ state: inout State) -> AnswerUpdate? {
        guard state.nextIndex < state.buffer.count else { return nil }
        let update = state.buffer[state.nextIndex]
        state.nextIndex += 1
        if state.nextIndex == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.nextIndex = 0
        }
        return update
    }
}

extension AnswerStream {
    /// Reads an answer's updates (see ``AnswerStream``). A reader that stops early, or whose task is
    /// cancelled, cancels the answer.
    public struct Iterator: AsyncIteratorProtocol {
        /// Ends the answer when the last copy of the iterator goes away.
        private final class Reader: Sendable {
            let channel: AnswerUpdateChannel
            init(_ channel: AnswerUpdateChannel) { self.channel = channel }
            deinit { channel.cancel() }
        }

        private let reader: Reader

        init(_ channel: AnswerUpdateChannel) {
            reader = Reader(channel)
        }

        /// The next update, or `nil` once the answer ended (or the reading task was cancelled).
        public mutating func next() async -> AnswerUpdate? {
            await reader.channel.next(isolation: nil)
        }

        /// The next update, waiting in `actor`'s isolation (the main actor's, for a view model).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> AnswerUpdate? {
            await reader.channel.next(isolation: actor)
        }
    }
}
