import CadenceCore

/// What one connection sends for an answer: its events after a cursor, as they are produced, with a
/// keepalive whenever nothing was sent for a whole `keepAliveInterval`. Shared by SSE and WebSocket.
///
/// The items are read by the connection's own response loop, straight from the registry: a reader
/// holds no task of its own, and its keepalive is a deadline of the read it waits in
/// (``AnswerRegistry/read(_:after:quietFor:since:)``), not a timer of its own.
struct AnswerFeed: Sendable {
    enum Item: Sendable {
        /// The events that were ready at once, oldest first (one, unless the reader fell behind or the
        /// events arrived together): a responder may send them in one write.
        case events([LoggedEvent])
        case keepalive
    }

    let registry: any AnswerRegistry
    let keepAliveInterval: Duration

    /// The items of answer `id` after sequence `after`. The sequence ends after the answer's last
    /// event, and throws if the answer is forgotten or the reader falls behind the replay log.
    func items(of id: String, after: Int) -> Items {
        Items(registry: registry, id: id, after: after, keepAliveInterval: keepAliveInterval)
    }

    /// The items of one answer for one reader (``items(of:after:)``).
    struct Items: AsyncSequence, Sendable {
        typealias Element = Item

        let registry: any AnswerRegistry
        let id: String
        let after: Int
        let keepAliveInterval: Duration

        func makeAsyncIterator() -> Iterator {
            Iterator(items: self, cursor: after)
        }

        struct Iterator: AsyncIteratorProtocol {
            let items: Items
            /// The sequence of the last event handed out.
            var cursor: Int
            var ended = false
            /// When the slice the reader sent last was taken: its quiet time counts from there, not
            /// from when it came back after writing, however long the write took.
            var lastTaken: Duration?

            mutating func next() async throws -> Item? {
                guard !ended else { return nil }
                let slice: AnswerSlice
                do {
                    slice = try await items.registry.read(
                        items.id, after: cursor, quietFor: items.keepAliveInterval, since: lastTaken)
                } catch {
                    ended = true
                    throw error
                }
                lastTaken = slice.takenAt
                if let sequence = slice.events.last(where: { $0.event.sequence != nil })?.event.sequence {
                    cursor = sequence
                }
                if !slice.events.isEmpty { return .events(slice.events) }
                if slice.finished {
                    ended = true
                    return nil
                }
                return .keepalive
            }
        }
    }
}
