/// How an answer ended, as counted by ``ServerMetrics``.
enum AnswerEnding: String, Sendable, CaseIterable {
    case complete, error, cancelled, interrupted

    /// The ending a terminal event stands for: `complete`, or the `error` event's code.
    init(errorCode: String?) {
        switch errorCode {
        case nil: self = .complete
        case "cancelled": self = .cancelled
        case "interrupted": self = .interrupted
        default: self = .error
        }
    }
}

/// The server's operational counters, exposed at `GET /metrics`.
///
/// The registry reports answers and events; the routes report readers and resumes.
/// (Interface first; the Prometheus-backed implementation fills these in.)
final class ServerMetrics: Sendable {
    init() {}

    /// An answer's engine started on this node.
    func answerStarted() {}
    /// An answer ended, however it ended (counted once, by the node that appended its terminal event).
    func answerEnded(_ ending: AnswerEnding) {}
    /// `count` events were appended to answers' logs (memory or PostgreSQL).
    func eventsAppended(_ count: Int) {}
    /// This node ended an answer whose owner's lease expired.
    func leaseTakenOver() {}
    /// A connection began following an answer (SSE, WebSocket); `resumed` when it came with a cursor.
    func readerOpened(resumed: Bool) {}
    /// A connection stopped following an answer.
    func readerClosed() {}
    /// With a model engine: how long the model took to send its first token.
    func modelFirstToken(after latency: Duration) {}
}
