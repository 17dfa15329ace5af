/// What a connection may take time over, and whether it counts against `--max-connections`: the
/// request read, body and keep-alive idle timeouts as a pure machine. It does no I/O and reads no
/// clock; ``RequestHeadTimer`` tells it what happened on the connection and performs the ``Action``
/// it returns.
///
/// One timer runs at a time, by phase:
/// - ``Timer/head``: from when the connection opens, and from the first byte of each later request,
///   until that request's head is complete. A client that trickles header bytes (slowloris) is closed.
/// - ``Timer/body``: from a complete head until the request's body ends. A body that trickles is
///   closed, with a 408 when nothing of its response was sent yet.
/// - ``Timer/idle``: on a keep-alive connection between requests, until the next byte. An idle
///   connection is closed.
///
/// Nothing is timed while a response is written (an answer may stream for minutes, with its own
/// keepalives) nor after a WebSocket upgrade (which has pings).
///
/// A connection is *busy* from a complete request head until it is idle again or closes, and a
/// WebSocket for as long as it is open: only a busy connection takes one of the server's
/// `--max-connections` places (``Action/takeSlot``), so connections that only open, or rest between
/// requests, never keep authorised work out.
///
/// ```swift
/// var deadline = RequestHeadDeadline()
/// deadline.connectionOpened()   // .startTimer(.head)
/// deadline.headReceived()       // .takeSlot: busy, and the body is now due
/// deadline.requestEnded()       // .cancelTimer: the response is being written, untimed
/// deadline.responseEnded()      // .releaseSlot(thenStart: .idle)
/// deadline.bytesRead()          // .startTimer(.head): the next request began
/// deadline.timerFired(.head)    // .close(.head, answering: false)
/// ```
struct RequestHeadDeadline: Sendable, Hashable {
    /// The three things a connection may be timed for; each has its own timeout.
    enum Timer: Sendable, Hashable {
        case head, body, idle
    }

    enum Action: Sendable, Hashable {
        case none
        /// Start `Timer`, replacing any timer that runs.
        case startTimer(Timer)
        case cancelTimer
        /// The connection became busy: take one of the server's places, then start the body timer.
        /// Without a place, the driver refuses the request and reports ``slotDenied()``.
        case takeSlot
        /// The connection is no longer busy: give its place back, then start the timer given (`nil`:
        /// cancel the running one).
        case releaseSlot(thenStart: Timer?)
        /// `Timer` passed: close the connection, answering 408 first if `answering`.
        case close(Timer, answering: Bool)
    }

    private enum State: Sendable, Hashable {
        /// Waiting for a head, with the head timer running.
        case awaitingHead
        /// Requests whose responses are not finished yet; `readingBody` while the last one's body
        /// arrives (the body timer runs), `responseBegan` once the oldest one's response has started.
        case serving(openRequests: Int, readingBody: Bool, responseBegan: Bool)
        /// Between requests on a keep-alive connection, with the idle timer running.
        case idle
        /// A WebSocket: busy until it closes, untimed.
        case upgraded
        /// Closed or refused: nothing more to time.
        case done

        var isReadingBody: Bool {
            if case .serving(_, true, _) = self { true } else { false }
        }
    }

    private var state = State.awaitingHead
    /// Whether the connection holds one of the server's places: from ``Action/takeSlot`` to
    /// ``Action/releaseSlot(thenStart:)``. A connection closed by its body timer holds it until
    /// ``finished()``.
    private var holdsSlot = false

    /// The connection opened: its first head is due within the timeout.
    mutating func connectionOpened() -> Action {
        state == .awaitingHead ? .startTimer(.head) : .none
    }

    /// Bytes arrived. On an idle connection they begin the next request, whose head is now due.
    mutating func bytesRead() -> Action {
        guard state == .idle else { return .none }
        state = .awaitingHead
        return .startTimer(.head)
    }

    /// A whole request head was parsed, and admitted.
    mutating func headReceived() -> Action {
        switch state {
        case .awaitingHead, .idle:
            state = .serving(openRequests: 1, readingBody: true, responseBegan: false)
            holdsSlot = true
            return .takeSlot
        case .serving(let open, _, let began):
            // A pipelined request: its head came while an earlier response was still being written.
            state = .serving(openRequests: open + 1, readingBody: true, responseBegan: began)
            return .startTimer(.body)
        case .upgraded, .done:
            return .none
        }
    }

    /// The server had no place for the request whose head came last: it is refused, and the
    /// connection closes.
    mutating func slotDenied() -> Action {
        state = .done
        holdsSlot = false
        return .cancelTimer
    }

    /// The last request's body ended.
    mutating func requestEnded() -> Action {
        guard case .serving(let open, _, let began) = state else { return .none }
        if open == 0 { return becameIdle() }
        state = .serving(openRequests: open, readingBody: false, responseBegan: began)
        return .cancelTimer
    }

    /// The oldest open request's response began: a body timeout can no longer be answered with 408.
    mutating func responseBegan() -> Action {
        guard case .serving(let open, let readingBody, _) = state else { return .none }
        state = .serving(openRequests: open, readingBody: readingBody, responseBegan: true)
        return .none
    }

    /// A response was written to its end.
    mutating func responseEnded() -> Action {
        guard case .serving(let open, let readingBody, _) = state else { return .none }
        let remaining = max(0, open - 1)
        if remaining == 0, !readingBody { return becameIdle() }
        state = .serving(openRequests: remaining, readingBody: readingBody, responseBegan: false)
        return .none
    }

    /// Every request of a busy connection is answered: it rests, timed by the idle timeout.
    private mutating func becameIdle() -> Action {
        state = .idle
        holdsSlot = false
        return .releaseSlot(thenStart: .idle)
    }

    /// The connection became a WebSocket: busy until it closes, and no longer timed.
    mutating func upgraded() -> Action {
        guard holdsSlot else { return finished() }
        state = .upgraded
        return .cancelTimer
    }

    /// The connection was refused or closed: no more requests are expected.
    mutating func finished() -> Action {
        let wasTimed = state == .awaitingHead || state == .idle || state.isReadingBody
        state = .done
        if holdsSlot {
            holdsSlot = false
            return .releaseSlot(thenStart: nil)
        }
        return wasTimed ? .cancelTimer : .none
    }

    /// `timer` passed. It closes the connection only if that timer still applies: a timer that fires
    /// late, after its phase ended, changes nothing.
    mutating func timerFired(_ timer: Timer) -> Action {
        switch (state, timer) {
        case (.awaitingHead, .head), (.idle, .idle):
            state = .done
            return .close(timer, answering: false)
        case (.serving(let open, true, let began), .body):
            state = .done
            // A 408 only when it is the next thing on the wire: one request open, nothing of its
            // response sent.
            return .close(.body, answering: open == 1 && !began)
        default:
            return .none
        }
    }
}
