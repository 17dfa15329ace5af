public import CadenceCore

extension ResearchMachine {
    /// The most reply characters kept from a plan or reflection call.
    static let maxReplyCharacters = 64 << 10

    /// One event of the current model call.
    public mutating func modelEvent(_ event: ModelEvent, now: Duration) -> [Action] {
        guard case .calling(var call) = state else { return [] }
        call.lastActivityAt = now
        var actions: [Action] = []
        switch event {
        case .text(let delta, 0), .refusal(let delta, 0):
            if call.model.purpose == .write {
                let text = citations.feed(delta)
                if !text.isEmpty {
                    call.sentText = true
                    actions.append(.emit(.token(text)))
                }
            } else if call.reply.utf8.count < Self.maxReplyCharacters {
                call.reply += delta
            }
        case .usage(let usage):
            call.usage = usage
        case .finish(let reason, 0):
            call.finish = reason
        case .error(let error):
            if call.streamError == nil { call.streamError = error }
        default:
            break  // reasoning (it keeps the call alive), other choices, tool calls
        }
        state = .calling(call)
        return actions
    }

    /// The current model call's stream ended.
    public mutating func modelEnded(now: Duration) -> [Action] {
        guard case .calling(let call) = state else { return [] }
        if let error = call.streamError {
            return callFailed(
                call, code: "model_error", message: "the model reported an error: \(error.message)",
                retryable: error.retryable, retryAfter: nil, now: now)
        }
        guard let finish = call.finish, finish != .truncated else {
            return callFailed(
                call, code: "model_truncated",
                message: "the model's stream ended before it finished (no finish reason)", retryable: true,
                retryAfter: nil, now: now)
        }
        account(call, now: now)
        switch call.model.purpose {
        case .plan: return planned(call.reply, now: now)
        case .reflect: return reflected(call.reply, now: now)
        case .write: return wrote(finish: finish, now: now)
        }
    }

    /// The current model call threw before or while streaming.
    public mutating func modelFailed(_ failure: ModelFailure, now: Duration) -> [Action] {
        guard case .calling(let call) = state else { return [] }
        // A status means the model's server was reached and refused; its message usually names the
        // status already ("the server answered HTTP 401 Unauthorized: …"), so it is added only if not.
        let status = failure.status.flatMap { failure.message.contains("HTTP \($0)") ? nil : " (HTTP \($0))" } ?? ""
        return callFailed(
            call, code: "model_failed", message: "the model call failed\(status): \(failure.message)",
            retryable: failure.retryable, retryAfter: failure.retryAfter, now: now)
    }

    /// A retry wait ended, or the model call was silent for too long.
    public mutating func deadlinePassed(now: Duration) -> [Action] {
        switch state {
        case .waitingToRetry(var model, let until) where now >= until:
            model.attempt += 1
            return call(model, now: now)
        case .calling(let call) where now >= call.lastActivityAt + configuration.modelIdleTimeout:
            let seconds = Self.seconds(configuration.modelIdleTimeout)
            return fail(
                code: "model_timeout",
                message: "the model sent nothing for \(seconds) s during \(call.model.purpose.stage); the answer ends here",
                closing: true)
        default:
            return []
        }
    }

    /// A call that failed: retried when nothing of it reached the readers, the failure may pass and
    /// attempts remain; otherwise the answer ends with `error`.
    mutating func callFailed(
        _ call: Call, code: String, message: String, retryable: Bool, retryAfter: Duration?, now: Duration
    ) -> [Action] {
        if retryable, !call.sentText, call.model.attempt < configuration.retry.maxAttempts {
            let jitter = Double.random(in: 0..<1, using: &random)
            let delay = configuration.retry.retryDelay(
                beforeAttempt: call.model.attempt + 1, retryAfter: retryAfter, jitter: jitter)
            calls += 1
            state = .waitingToRetry(call.model, until: now + delay)
            return [.closeModelCall]
        }
        calls += 1
        let attempts = call.model.attempt == 1 ? "" : " after \(call.model.attempt) attempts"
        return fail(code: code, message: message + attempts, closing: true)
    }

    /// Adds a finished call's usage and time to the totals.
    mutating func account(_ call: Call, now: Duration) {
        calls += 1
        if let used = call.usage {
            usage.inputTokens += used.inputTokens
            usage.outputTokens += used.outputTokens
            if let reasoning = used.reasoningTokens { usage.reasoningTokens = (usage.reasoningTokens ?? 0) + reasoning }
            usage.totalTokens = (usage.totalTokens ?? 0) + (used.totalTokens ?? used.inputTokens + used.outputTokens)
        }
        stageTimes[call.model.purpose.timingKey, default: .zero] += now - call.startedAt
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension ResearchMachine.ModelCall.Purpose {
    /// The stage, for messages.
    var stage: String {
        switch self {
        case .plan: "planning"
        case .reflect: "reflection"
        case .write: "writing"
        }
    }

    /// The completion metadata key of its time.
    var timingKey: String {
        switch self {
        case .plan: "planning_ms"
        case .reflect: "reflection_ms"
        case .write: "synthesis_ms"
        }
    }
}
