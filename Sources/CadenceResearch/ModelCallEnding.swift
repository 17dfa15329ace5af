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

/// How a model call's stream ended, read from the error it reported and the finish of choice 0:
/// shared by research and chat, which end a broken call with the same codes.
enum ModelCallEnding: Equatable {
    /// The model finished (`stop`, the token limit, tool calls, a filter …).
    case finished(FinishReason)
    /// The stream broke: `model_error` (an error inside it) or `model_truncated` (no finish reason).
    case broken(ModelCallFailure)

    init(streamError: ModelError?, finish: FinishReason?) {
        if let error = streamError {
            self = .broken(
                ModelCallFailure(
                    code: "model_error", message: "the model reported an error: \(error.message)",
                    retryable: error.retryable))
        } else if let finish, finish != .truncated, finish != .error {
            self = .finished(finish)
        } else {
            self = .broken(
                ModelCallFailure(
                    code: "model_truncated", message: "the model's stream ended before it finished (no finish reason)",
                    retryable: true))
        }
    }
}

/// Why a model call failed: the answer's `error` if it is not tried again, and what decides that.
struct ModelCallFailure: Equatable {
    var code: String
    var message: String
    var retryable: Bool
    /// How long the model's server asked to wait (`Retry-After`).
    var retryAfter: Duration?
}

extension ModelCallFailure {
    /// The call threw before or while streaming.
    init(thrown failure: ResearchMachine.ModelFailure) {
        self.init(
            code: "model_failed", message: failure.explanation, retryable: failure.retryable,
            retryAfter: failure.retryAfter)
    }
}
