/// When a connection must have delivered a whole request head: the request read timeout as a pure
/// machine. It does no I/O and reads no clock; ``RequestGuardHandler`` tells it what happened on the
/// connection and performs the ``Action`` it returns.
///
/// The timer runs from when the connection opens, and from the first byte of each later request,
/// until that request's head is complete. It does not run while a request body arrives or a response
/// is written (an answer may stream for minutes), nor on an idle keep-alive connection between
/// requests, nor after a WebSocket upgrade. So a client that trickles header bytes (slowloris) is
/// closed, and everything else behaves as it would without the timeout.
///
/// ```swift
/// var deadline = RequestHeadDeadline()
/// deadline.connectionOpened()   // .startTimer
/// deadline.headReceived()       // .cancelTimer
/// deadline.requestEnded()       // .none
/// deadline.responseEnded()      // .none: idle, untimed
/// deadline.bytesRead()          // .startTimer: the next request began
/// deadline.timerFired()         // .close
/// ```
struct RequestHeadDeadline: Sendable, Hashable {
    enum Action: Sendable, Hashable {
        case none
        case startTimer
        case cancelTimer
        case close
    }

    private enum State: Sendable, Hashable {
        /// Waiting for a head, with the timer running.
        case awaitingHead
        /// Requests whose responses are not finished yet; `readingBody` while the last one's body arrives.
        case serving(openRequests: Int, readingBody: Bool)
        /// Between requests on a keep-alive connection: untimed until the next byte.
        case idle
        /// Upgraded to a WebSocket, closed, or refused: nothing more to time.
        case done
    }

    private var state = State.awaitingHead

    /// The connection opened: its first head is due within the timeout.
    mutating func connectionOpened() -> Action {
        state == .awaitingHead ? .startTimer : .none
    }

    /// Bytes arrived. On an idle connection they begin the next request, whose head is now due.
    mutating func bytesRead() -> Action {
        guard state == .idle else { return .none }
        state = .awaitingHead
        return .startTimer
    }

    /// A whole request head was parsed.
    mutating func headReceived() -> Action {
        switch state {
        case .awaitingHead, .idle:
            state = .serving(openRequests: 1, readingBody: true)
            return .cancelTimer
        case .serving(let open, _):
            // A pipelined request: its head came while an earlier response was still being written.
            state = .serving(openRequests: open + 1, readingBody: true)
            return .none
        case .done:
            return .none
        }
    }

    /// The last request's body ended.
    mutating func requestEnded() -> Action {
        guard case .serving(let open, _) = state else { return .none }
        state = open == 0 ? .idle : .serving(openRequests: open, readingBody: false)
        return .none
    }

    /// A response was written to its end.
    mutating func responseEnded() -> Action {
        guard case .serving(let open, let readingBody) = state else { return .none }
        let remaining = max(0, open - 1)
        state = remaining == 0 && !readingBody ? .idle : .serving(openRequests: remaining, readingBody: readingBody)
        return .none
    }

    /// The connection became a WebSocket, was refused, or closed: no more heads are expected.
    mutating func finished() -> Action {
        let wasTimed = state == .awaitingHead
        state = .done
        return wasTimed ? .cancelTimer : .none
    }

    /// The timer passed. Only a connection still waiting for a head is closed.
    mutating func timerFired() -> Action {
        guard state == .awaitingHead else { return .none }
        state = .done
        return .close
    }
}
