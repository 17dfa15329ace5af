extension AnswerStreamMachine {
    /// Starts the answer: returns `connect(resume: nil)`. Calls after the first do nothing.
    ///
    /// `now` is normally `.zero`: every timeout counts from it.
    public mutating func start(now: Duration) -> [Action] {
        guard case .idle = state else { return [] }
        startedAt = now
        lastContentAt = now
        attempt = 1
        return openConnection(resume: nil, isRetry: false, now: now)
    }

    /// The connection asked for by `connect` is open (the response head arrived). Emits
    /// ``AnswerUpdate/reconnected`` when it follows a retry. `answerID` is the server's id for the
    /// answer, which makes resuming possible.
    public mutating func connected(answerID: String?, now: Duration) -> [Action] {
        switch state {
        case .connecting(let connection):
            if let timedOut = expireTimeouts(now: now) { return timedOut }
            return becomeStreaming(connection, answerID: answerID)
        case .streaming:
            if content.answerID == nil, let answerID { content.answerID = answerID }
            return []
        case .idle, .waitingToReconnect, .finished:
            return []
        }
    }

    /// A research event arrived. Events already applied (sequence ≤ the last applied) are dropped;
    /// `complete` is stored, not acted on; an `error` event fails the answer with its partial text.
    public mutating func received(_ event: ResearchEvent, now: Duration) -> [Action] {
        guard var actions = bytesArrived(now: now) else { return [] }
        guard !isFinished, !content.isDuplicate(event) else { return actions }
        if case .error(let code, let message) = event.kind {
            _ = content.apply(event)
            let failure = AnswerFailure(
                .server, message: message.isEmpty ? "The server failed (\(code))." : message,
                partialText: content.text, sources: content.sources, serverCode: code, attempts: attempt)
            return actions + finish(.failed(failure), closing: true)
        }
        actions += content.apply(event).map(Action.emit)
        if event.kind.isContent {
            lastContentAt = now
            resumedForIdle = false
            attempt = 1  // progress: the retry budget starts again
        }
        return actions
    }

    /// A keepalive comment arrived: the connection is alive, but there is no new content, so only
    /// the byte-idle timeout starts again.
    public mutating func keepAliveReceived(now: Duration) -> [Action] {
        bytesArrived(now: now) ?? []
    }

    /// Bytes arrived that do not (yet) make an event, for drivers that see raw chunks. Like a keepalive.
    public mutating func bytesReceived(now: Duration) -> [Action] {
        bytesArrived(now: now) ?? []
    }

    /// The connection ended cleanly. After a stored `complete` the answer completes; otherwise it is
    /// treated as a drop, and resumed if that is possible.
    public mutating func connectionClosed(now: Duration) -> [Action] {
        guard let connection else { return [] }
        if let timedOut = expireTimeouts(now: now) { return timedOut }
        if content.storedCompletion != nil {
            return finish(.completed(content.completion(reason: .completed)), closing: false)
        }
        let failure = ConnectionFailure.transport(
            "the server closed the stream before the answer was complete", beforeFirstByte: !connection.sawBytes)
        return connectionLost(failure, connection: connection, now: now, closing: false)
    }

    /// The connection could not be opened, or broke. Retries when the failure is retryable and the
    /// answer can go on without losing or doubling text; otherwise ends the answer. A malformed event
    /// (``ConnectionFailure/malformedEvent``) resumes from the last event applied, once per place: the
    /// same place failing again ends the answer with its text kept.
    public mutating func connectionFailed(_ failure: ConnectionFailure, now: Duration) -> [Action] {
        guard let connection else { return [] }
        if let timedOut = expireTimeouts(now: now) { return timedOut }
        if failure.malformedEvent { return malformedEventEnded(connection, failure, now: now) }
        return connectionLost(failure, connection: connection, now: now, closing: false)
    }

    /// The user cancelled: closes the connection and emits ``AnswerUpdate/cancelled(partialText:)``.
    /// Nothing is emitted after it. Cancelling wins over a timeout due at the same `now`.
    public mutating func cancel(now: Duration) -> [Action] {
        switch state {
        case .finished: []
        case .connecting, .streaming: finish(.cancelled(partialText: content.text), closing: true)
        case .idle, .waitingToReconnect: finish(.cancelled(partialText: content.text), closing: false)
        }
    }

    // MARK: - Shared steps

    /// Asks for a connection.
    mutating func openConnection(resume: ResumeCursor?, isRetry: Bool, now: Duration) -> [Action] {
        connectionCount += 1
        state = .connecting(Connection(resumedFrom: resume, isRetry: isRetry, lastByteAt: now))
        return [.connect(resume: resume)]
    }

    private mutating func becomeStreaming(_ connection: Connection, answerID: String?) -> [Action] {
        // A resumed connection keeps the answer's id; a new answer takes the server's new one.
        if let answerID, connection.resumedFrom == nil { content.answerID = answerID }
        state = .streaming(connection)
        return connection.isRetry ? [.emit(.reconnected)] : []
    }

    /// Notes bytes on the current connection (an event before `connected` counts as connecting).
    /// Returns `nil` when there is no connection to take them, or the actions so far (which end the
    /// answer when a timeout was already due at `now`).
    private mutating func bytesArrived(now: Duration) -> [Action]? {
        var actions: [Action] = []
        var current: Connection
        switch state {
        case .connecting(let connection):
            if let timedOut = expireTimeouts(now: now) { return timedOut }
            actions = becomeStreaming(connection, answerID: nil)
            current = connection
        case .streaming(let connection):
            if let timedOut = expireTimeouts(now: now) { return timedOut }
            current = connection
        case .idle, .waitingToReconnect, .finished:
            return nil
        }
        current.lastByteAt = now
        current.sawBytes = true
        state = .streaming(current)
        return actions
    }
}
