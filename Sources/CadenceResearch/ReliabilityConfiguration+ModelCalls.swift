import CadenceCore

extension ReliabilityConfiguration {
    /// How long to wait before trying a failed model call again, or `nil` when it is not tried again:
    /// the failure may not pass, something of the call already reached the readers, or
    /// `failedAttempt` was the last allowed. The wait is `retryAfter` (capped) when the model's server
    /// named one, else backoff with jitter drawn from `random`. Shared by research and chat.
    func delayBeforeRetrying(
        failedAttempt: Int, retryable: Bool, sentAnything: Bool, retryAfter: Duration?,
        random: inout any RandomNumberGenerator & Sendable
    ) -> Duration? {
        guard retryable, !sentAnything, failedAttempt < maxAttempts else { return nil }
        let jitter = Double.random(in: 0..<1, using: &random)
        return retryDelay(beforeAttempt: failedAttempt + 1, retryAfter: retryAfter, jitter: jitter)
    }

    /// The end of a failure's message that says how many attempts were made, when more than one.
    static func attemptsMade(_ attempts: Int) -> String {
        attempts == 1 ? "" : " after \(attempts) attempts"
    }
}
