extension AnswerStreamMachine {
    /// ``nextDeadline`` has arrived (or passed). Ends the answer if a timeout is due, closes a
    /// silent connection, or opens the connection a retry was waiting for. Calling it early does
    /// nothing, so spurious wake-ups are harmless.
    ///
    /// Every other method also checks the timeouts first, so the outcome depends only on the
    /// sequence of calls and their `now`, never on how late the driver's timer fired.
    public mutating func deadlinePassed(now: Duration) -> [Action] {
        if let timedOut = expireTimeouts(now: now) { return timedOut }
        switch state {
        case .connecting(let connection), .streaming(let connection):
            guard let limit = configuration.byteIdleTimeout, now >= connection.lastByteAt + limit else { return [] }
            let failure = ConnectionFailure.transport(
                "no data arrived for \(limit.readableDescription)", beforeFirstByte: !connection.sawBytes)
            return connectionLost(failure, connection: connection, now: now, closing: true, timeout: .byteIdle)
        case .waitingToReconnect(let until):
            guard now >= until else { return [] }
            return openConnection(resume: content.resumeCursor, isRetry: true, now: now)
        case .idle, .finished:
            return []
        }
    }

    /// Ends the answer when a timeout that ends answers (overall, first token, idle) is due at
    /// `now`; the earliest due wins. Returns `nil` when none is due.
    mutating func expireTimeouts(now: Duration) -> [Action]? {
        switch state {
        case .idle, .finished: return nil
        case .connecting, .streaming, .waitingToReconnect: break
        }
        guard let due = earliestTimeout, now >= due.at else { return nil }
        return endByTimeout(due.timeout, closing: connection != nil)
    }

    /// Ends the answer because `timeout` passed: the server's completion if `complete` was stored,
    /// else the partial text as a `timedOut` completion, else a failure that names the timeout.
    /// `closing` says whether a connection is open and must be closed first.
    mutating func endByTimeout(_ timeout: AnswerTimeout, closing: Bool) -> [Action] {
        if content.storedCompletion != nil {
            return finish(.completed(content.completion(reason: .completed)), closing: closing)
        }
        if !content.text.isEmpty {
            return finish(.completed(content.completion(reason: .timedOut, timeout: timeout)), closing: closing)
        }
        let limit = timeout.limit(in: configuration) ?? .zero
        let failure = AnswerFailure(
            .timedOut, message: configuration.emptyTimeoutMessage ?? timeout.emptyAnswerMessage(limit: limit),
            sources: content.sources, timeout: timeout, attempts: attempt)
        return finish(.failed(failure), closing: closing)
    }
}
