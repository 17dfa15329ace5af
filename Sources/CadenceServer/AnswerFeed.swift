import CadenceCore
import NIOConcurrencyHelpers

/// What one connection sends for an answer: its events after a cursor, as they are produced, with a
/// keepalive whenever nothing was sent for a whole `keepAliveInterval`. Shared by SSE and WebSocket.
struct AnswerFeed: Sendable {
    enum Item: Sendable {
        /// The events that were ready at once, oldest first (one, unless the reader fell behind or the
        /// events arrived together): a responder may send them in one write.
        case events([LoggedEvent])
        case keepalive
    }

    let registry: any AnswerRegistry
    let clock: any Clock<Duration>
    let keepAliveInterval: Duration

    /// The items of answer `id` after sequence `after`. The sequence ends after the answer's last
    /// event, and throws if the answer is forgotten or the reader falls behind the replay log.
    func items(of id: String, after: Int) -> AsyncThrowingStream<Item, any Error> {
        items(of: id, after: after, clock: clock)
    }

    private func items<C: Clock<Duration>>(of id: String, after: Int, clock: C) -> AsyncThrowingStream<Item, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Item, any Error>.makeStream()
        let lastSent = NIOLockedValueBox(clock.now)
        let interval = keepAliveInterval
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        var cursor = after
                        while true {
                            let slice = try await registry.read(id, after: cursor)
                            if !slice.events.isEmpty {
                                continuation.yield(.events(slice.events))
                                if let sequence = slice.events.last(where: { $0.event.sequence != nil })?.event.sequence {
                                    cursor = sequence
                                }
                                lastSent.withLockedValue { $0 = clock.now }
                            }
                            if slice.finished && slice.events.isEmpty { break }
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                group.addTask {
                    // A keepalive whenever a whole interval has passed since anything was sent,
                    // measured on the injected clock.
                    var deadline = clock.now.advanced(by: interval)
                    while !Task.isCancelled {
                        do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                        let quietUntil = lastSent.withLockedValue { $0 }.advanced(by: interval)
                        if quietUntil <= clock.now {
                            continuation.yield(.keepalive)
                            lastSent.withLockedValue { $0 = clock.now }
                            deadline = clock.now.advanced(by: interval)
                        } else {
                            deadline = quietUntil
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
