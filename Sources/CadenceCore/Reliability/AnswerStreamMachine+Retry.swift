extension AnswerStreamMachine {
    /// The connection is gone (failed, closed early, or silent for the byte-idle timeout). Retries
    /// when all of these hold, otherwise ends the answer:
    /// - the failure is retryable, and it is not a 404/410 to a resume (the answer is gone) or a 416
    ///   (the server refused the cursor as past the answer's end);
    /// - fewer than `maxAttempts` attempts were made in a row without progress;
    /// - nothing can be doubled or lost: either a resume cursor exists, or nothing has been applied
    ///   and the failure came before the first byte of the body.
    ///
    /// - Parameters:
    ///   - closing: whether the connection is still open and must be closed.
    ///   - timeout: set when the byte-idle timeout caused the loss; if no retry is possible the
    ///     answer then ends as that timeout.
    mutating func connectionLost(
        _ failure: ConnectionFailure, connection: Connection, now: Duration, closing: Bool,
        timeout: AnswerTimeout? = nil
    ) -> [Action] {
        let answerGone = failure.isAnswerGone && connection.resumedFrom != nil
        let cursorRefused = failure.isCursorRefused && connection.resumedFrom != nil
        let canResume = content.resumeCursor != nil
        let canStartAgain = failure.beforeFirstByte && !connection.sawBytes && content.appliedEvents == 0
        let safeToRetry = canResume || canStartAgain
        if failure.retryable, !answerGone, !cursorRefused, attempt < configuration.maxAttempts, safeToRetry {
            return (closing ? [.closeConnection] : []) + scheduleRetry(retryAfter: failure.retryAfter, now: now)
        }
        if content.storedCompletion != nil {
            return finish(.completed(content.completion(reason: .completed)), closing: closing)
        }
        if let timeout { return endByTimeout(timeout, closing: closing) }
        let ending = answerFailure(
            failure, answerGone: answerGone, cursorRefused: cursorRefused, safeToRetry: safeToRetry)
        return finish(.failed(ending), closing: closing)
    }

    /// A malformed event ended `connection`. The first time at a place (the last sequence applied),
    /// the answer resumes from there, as after a drop: the event may have been damaged on the way.
    /// The same place failing again is not a drop, and ends the answer, with its text kept (completed
    /// if `complete` was already stored).
    mutating func malformedEventEnded(_ connection: Connection, _ failure: ConnectionFailure, now: Duration) -> [Action] {
        let place = content.resumeCursor?.lastSequence
        if let place, malformedAfter != place {
            malformedAfter = place
            var resumable = failure
            resumable.retryable = true
            return connectionLost(resumable, connection: connection, now: now, closing: false)
        }
        if content.storedCompletion != nil {
            return finish(.completed(content.completion(reason: .completed)), closing: false)
        }
        let detail = failure.message.trimmedTrailingPeriod
        let message =
            place.map { "The server sent a malformed event after sequence \($0) again after resuming, so the answer ends here: \(detail)." }
            ?? "The server sent a malformed event and the answer cannot be resumed: \(detail)."
        return finish(
            .failed(
                AnswerFailure(
                    .interrupted, message: message, partialText: content.text, sources: content.sources,
                    attempts: attempt)),
            closing: false)
    }

    /// Waits before the next attempt and tells the consumer.
    mutating func scheduleRetry(retryAfter: Duration?, now: Duration) -> [Action] {
        attempt += 1
        let jitter = Double.random(in: 0..<1, using: &random)
        let delay = configuration.retryDelay(beforeAttempt: attempt, retryAfter: retryAfter, jitter: jitter)
        state = .waitingToReconnect(until: now + delay)
        return [.emit(.reconnecting(attempt: attempt, after: delay))]
    }

    /// The failure that ends the answer, with the partial text kept.
    private func answerFailure(
        _ failure: ConnectionFailure, answerGone: Bool, cursorRefused: Bool, safeToRetry: Bool
    ) -> AnswerFailure {
        let code: AnswerFailure.Code
        let message: String
        let detail = failure.message.trimmedTrailingPeriod
        if answerGone {
            code = .answerGone
            message = "The server no longer has this answer, so it could not be resumed (\(detail)). Please ask again."
        } else if cursorRefused {
            code = .resumeRefused
            message =
                "The server has fewer events of this answer than were received, so it could not be resumed (\(detail)). Please ask again."
        } else if !failure.retryable {
            code = .connection
            message = detail.prefix(1).uppercased() + detail.dropFirst() + "."
        } else if !safeToRetry {
            code = .interrupted
            message = "The connection broke mid-answer and the answer cannot be resumed: \(detail)."
        } else {
            code = .connection
            let attempts = attempt == 1 ? "1 attempt" : "\(attempt) attempts"
            message = "The answer could not be received after \(attempts): \(detail)."
        }
        return AnswerFailure(
            code, message: message, partialText: content.text, sources: content.sources, status: failure.status,
            attempts: attempt, exceededLimit: failure.exceededLimit)
    }
}

extension String {
    /// The string without one final ".", so messages can be embedded in sentences.
    fileprivate var trimmedTrailingPeriod: String {
        hasSuffix(".") ? String(dropLast()) : self
    }
}

extension ResearchEvent.Kind {
    /// Whether the event is content for the idle timeout: everything but `: flush-tokens`.
    var isContent: Bool {
        if case .flushTokens = self { return false }
        return true
    }
}
