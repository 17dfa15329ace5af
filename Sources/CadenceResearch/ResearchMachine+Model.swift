public import CadenceCore
import CadenceEngine

extension ResearchMachine {
    /// The most reply bytes (UTF-8) kept from a plan or reflection call; a delta is cut to the room
    /// left before it is appended, so one huge delta cannot pass the cap.
    static let maxReplyBytes = 64 << 10

    /// One event of the current model call.
    public mutating func modelEvent(_ event: ModelEvent, now: Duration) -> [Action] {
        guard case .calling(var call) = state else { return [] }
        // The state lets go of the call while it changes, so appending to its reply does not copy it.
        state = .idle
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
            } else {
                let room = delta.prefix(utf8Bytes: Self.maxReplyBytes - call.reply.utf8.count)
                if !room.isEmpty { call.reply += room }
            }
        case .usage(let usage):
            call.usage = usage
            let used = tokensUsed + usage.inputTokens + usage.outputTokens
            if used > configuration.maxAnswerTokens {
                state = .calling(call)
                return actions + overBudget(tokens: used, during: call.model.purpose.stage)
            }
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
    public mutating func modelEnded(now: Duration) -> [Action] { endCall(now: now) }

    /// The current model call threw before or while streaming.
    public mutating func modelFailed(_ failure: ModelFailure, now: Duration) -> [Action] { failCall(failure, now: now) }

    var currentCall: Call? { if case .calling(let call) = state { call } else { nil } }

    /// The call finished: its plan, reflection or answer goes on to the next stage.
    mutating func callFinished(_ call: Call, finish: FinishReason, now: Duration) -> [Action] {
        account(call, now: now)
        switch call.model.purpose {
        case .plan: return planned(call.reply, now: now)
        case .reflect: return reflected(call.reply, now: now)
        case .write: return wrote(finish: finish, now: now)
        }
    }

    /// A retry wait ended, the model call was silent for too long, or the answer's time budget ran out.
    public mutating func deadlinePassed(now: Duration) -> [Action] {
        if now >= configuration.maxAnswerTime, !isFinished {
            return overBudget(time: now)
        }
        switch state {
        case .waitingToRetry(var model, let until) where now >= until:
            model.attempt += 1
            return call(model, now: now)
        case .calling(let call) where now >= configuration.idleDeadline(after: call.lastActivityAt):
            let seconds = configuration.modelIdleTimeout.secondsText
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
    mutating func callFailed(_ call: Call, _ failure: ModelCallFailure, now: Duration) -> [Action] {
        calls += 1
        if let delay = configuration.retry.delayBeforeRetrying(
            failedAttempt: call.model.attempt, retryable: failure.retryable, sentAnything: call.sentText,
            retryAfter: failure.retryAfter, random: &random)
        {
            state = .waitingToRetry(call.model, until: now + delay)
            return [.closeModelCall]
        }
        let attempts = ReliabilityConfiguration.attemptsMade(call.model.attempt)
        return fail(code: failure.code, message: failure.message + attempts, closing: true)
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

    /// Model tokens used by the finished calls, input plus output: what the token budget counts.
    var tokensUsed: Int { usage.inputTokens + usage.outputTokens }

    /// Ends the answer because it used up its time budget, keeping the text so far.
    mutating func overBudget(time now: Duration) -> [Action] {
        let stage =
            switch state {
            case .calling(let call): call.model.purpose.stage
            case .waitingToRetry(let model, _): "the wait before retrying \(model.purpose.stage)"
            case .searching: "searching"
            case .readingPages: "reading pages"
            case .idle, .finished: "research"
            }
        let open = if case .calling = state { true } else { false }
        return fail(
            code: "budget_exceeded",
            message: AnswerBudget.spentMessage(configuration.maxAnswerTime, during: stage),
            closing: open)
    }

    /// Ends the answer because its model calls used more tokens than its budget, keeping the text so far.
    mutating func overBudget(tokens used: Int, during stage: String) -> [Action] {
        fail(
            code: "budget_exceeded",
            message: "the answer's model calls used \(used) tokens (input plus output), past its budget of \(configuration.maxAnswerTokens), during \(stage); it ends here with the text so far",
            closing: true)
    }

}

extension ResearchMachine.ModelFailure {
    /// The `model_failed` message: what failed, with the HTTP status when the model's server was
    /// reached and refused. Its message usually names the status already ("the server answered
    /// HTTP 401 Unauthorized: …"), so the status is added only if not.
    var explanation: String {
        let status = status.flatMap { message.contains("HTTP \($0)") ? nil : " (HTTP \($0))" } ?? ""
        return "the model call failed\(status): \(message)"
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
