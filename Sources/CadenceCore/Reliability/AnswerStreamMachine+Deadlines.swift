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
    ///
    /// The idle timeout first resumes once on a fresh connection (see ``resumeAfterContentIdle(now:)``);
    /// it ends the answer only when that is not possible or was already tried.
    mutating func expireTimeouts(now: Duration) -> [Action]? {
        switch state {
        case .idle, .finished: return nil
        case .connecting, .streaming, .waitingToReconnect: break
        }
        guard let due = earliestTimeout, now >= due.at else { return nil }
        if due.timeout == .idle, let resumed = resumeAfterContentIdle(now: now) { return resumed }
        return endByTimeout(due.timeout, closing: connection != nil)
    }

    /// The idle timeout passed on an open connection that still sends bytes (keepalives) or has
    /// gone silent: the usual cause is a stuck proxy or load balancer in between, while the server
    /// goes on writing. So the first time, the connection is replaced by a resume from the last
    /// applied event, counted as a retry, and the idle timeout starts again. If that connection is
    /// idle too, the answer ends as timed out. New content makes another resume possible later.
    ///
    /// Returns `nil` (end the answer) when there is no open connection, no cursor to resume from, a
    /// stored `complete` (the answer is whole), no retry left, the resume was already tried, or
    /// another timeout is due too (a late driver).
    private mutating func resumeAfterContentIdle(now: Duration) -> [Action]? {
        guard !resumedForIdle, connection != nil, content.storedCompletion == nil, content.resumeCursor != nil,
            attempt < configuration.maxAttempts
        else { return nil }
        if let other = earliestTimeout(includingIdle: false), now >= other.at { return nil }
        resumedForIdle = true
        lastContentAt = now
        return [.closeConnection] + scheduleRetry(retryAfter: nil, now: now)
    }

    /// Ends the answer because `timeout` passed: the server's completion if `complete` was stored,
    /// else the partial answer (text, refusal or tool calls) as a `timedOut` completion, else a
    /// failure that names the timeout.
    /// `closing` says whether a connection is open and must be closed first.
    mutating func endByTimeout(_ timeout: AnswerTimeout, closing: Bool) -> [Action] {
        if content.storedCompletion != nil {
            return finish(.completed(content.completion(reason: .completed)), closing: closing)
        }
        if content.hasAnswer {
            return finish(.completed(content.completion(reason: .timedOut, timeout: timeout)), closing: closing)
        }
        let limit = timeout.limit(in: configuration) ?? .zero
        let failure = AnswerFailure(
            .timedOut, message: configuration.emptyTimeoutMessage ?? timeout.emptyAnswerMessage(limit: limit),
            sources: content.sources, timeout: timeout, attempts: attempt)
        return finish(.failed(failure), closing: closing)
    }
}
