public import CadenceCore
import CadenceEngine

/// The pure core of a chat answer: one model call whose stream is relayed as research events,
/// retried while nothing of it has reached the readers, and held to the answer's limits.
///
/// Choice 0 is the answer. Its text becomes `token` events, as the model split it; its visible
/// reasoning `reasoning` events and a refusal `refusal` events, kept apart from the text; each tool
/// call one `tool_call` event once it is whole (when the next call starts or the choice finishes).
/// A clean finish ends with `complete`, whose metadata carries `engine: "chat"`, the model, the
/// finish reason, the usage and the budget; a broken call ends with `error` after what was sent
/// (`model_error`, `model_truncated`, `model_timeout`, `model_failed`, `budget_exceeded`).
///
/// Like ``ResearchMachine`` it does no I/O and reads no clock; its driver (``ChatEngine``) performs
/// the returned ``Action``s in order and reports back:
///
/// ```swift
/// var machine = ChatMachine(request: AnswerRequest(query: "Hello"), model: "llama3.2")
/// machine.start(now: .zero)                                     // [.callModel(attempt: 1)]
/// machine.modelFailed(.init(message: "HTTP 429", retryable: true, retryAfter: .seconds(2)), now: .zero)
///                                                               // [.closeModelCall]; nextDeadline == 2 s
/// machine.deadlinePassed(now: .seconds(2))                      // [.callModel(attempt: 2)]
/// machine.modelEvent(.text("Hi"), now: .seconds(3))             // [.emit(.token("Hi"))]
/// machine.modelEvent(.finish(.stop), now: .seconds(3))          // []
/// machine.modelEnded(now: .seconds(3))                          // [.emit(.complete(…)), .finish]
/// ```
///
/// ## Driving it
/// - `now` is the time since the answer started on the driver's clock, never decreasing.
/// - `callModel` starts the model call with ``turns`` (closing any earlier one); report its events
///   with ``modelEvent(_:now:)``, then exactly one of ``modelEnded(now:)`` or ``modelFailed(_:now:)``.
///   After `closeModelCall`, report nothing more from that call.
/// - When nothing happens, sleep until ``nextDeadline`` and call ``deadlinePassed(now:)``.
/// - Stop after `finish`. ``cancel()`` stops at once.
public struct ChatMachine: Sendable {
    /// What the driver must do, in order.
    public enum Action: Sendable, Hashable {
        /// Send this event to the readers.
        case emit(ResearchEvent.Kind)
        /// Start the model call with ``ChatMachine/turns`` (closing any call still open); `attempt`
        /// is 1 for the first try.
        case callModel(attempt: Int)
        /// Close the current model call.
        case closeModelCall
        /// The answer is over; stop.
        case finish
    }

    /// The engine name reported in the completion's metadata.
    public static let engineName = "chat"

    /// The call in flight, with what it has sent so far.
    struct Call: Sendable {
        var attempt: Int
        var lastActivityAt: Duration
        var finish: FinishReason?
        var usage: ModelUsage?
        /// A failure reported inside the stream, waiting for its end.
        var streamError: ModelError?
        /// Whether this call sent anything the readers saw; after that it is never retried.
        var sentAnything = false
        var toolCalls = ToolCallAssembly()
    }

    enum State: Sendable {
        case idle
        case calling(Call)
        /// Waiting out a retry delay before the next attempt.
        case waitingToRetry(attempt: Int, until: Duration)
        case finished
    }

    /// The conversation sent to the model: the request's history, then its question.
    public let turns: [ChatTurn]
    public let configuration: ChatConfiguration
    /// The model's name, reported in the completion's metadata.
    public let model: String?
    var state: State = .idle
    var random: any RandomNumberGenerator & Sendable
    /// Model requests made, retries included.
    var calls = 0

    public init(
        request: AnswerRequest, configuration: ChatConfiguration = ChatConfiguration(), model: String? = nil,
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        // The client's system prompt (an OpenAI-compatible request's system messages) comes after the
        // server's own (`--system`), which the provider sends first.
        self.turns = (request.system.map { [ChatTurn(role: "system", content: $0)] } ?? []) + request.history
            + [ChatTurn(role: "user", content: request.query)]
        self.configuration = configuration
        self.model = model
        self.random = random
    }

    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// When the driver must call ``deadlinePassed(now:)`` if nothing else happens first: the model
    /// call's idle deadline, the end of a retry wait, or the end of the answer's time budget.
    public var nextDeadline: Duration? {
        switch state {
        case .calling(let call): configuration.withinBudget(configuration.idleDeadline(after: call.lastActivityAt))
        case .waitingToRetry(_, let until): configuration.withinBudget(until)
        case .idle, .finished: nil
        }
    }

    /// Starts the answer: the first model call.
    public mutating func start(now: Duration) -> [Action] {
        guard case .idle = state else { return [] }
        return call(attempt: 1, now: now)
    }

    /// Stops at once: closes the model call, sends nothing more.
    public mutating func cancel() -> [Action] {
        let open = if case .calling = state { true } else { false }
        state = .finished
        return open ? [.closeModelCall] : []
    }

    /// One event of the model call.
    public mutating func modelEvent(_ event: ModelEvent, now: Duration) -> [Action] {
        guard case .calling(var call) = state else { return [] }
        call.lastActivityAt = now
        var sent: [ResearchEvent.Kind] = []
        switch event {
        case .text(let text, 0) where !text.isEmpty: sent.append(.token(text))
        case .reasoning(let text, 0) where !text.isEmpty: sent.append(.reasoning(text))
        case .refusal(let text, 0) where !text.isEmpty: sent.append(.refusal(text))
        case .toolCall(let fragment) where fragment.choice == 0:
            sent += call.toolCalls.add(fragment).map(ResearchEvent.Kind.toolCall)
        case .usage(let usage):
            call.usage = usage
            let used = usage.inputTokens + usage.outputTokens
            if used > configuration.maxAnswerTokens {
                state = .calling(call)
                return overBudget(tokens: used)
            }
        case .finish(let reason, 0):
            call.finish = reason
            // A cut or failed stream's last call is not whole; the answer ends with an error instead.
            if reason != .truncated, reason != .error {
                sent += call.toolCalls.finish().map(ResearchEvent.Kind.toolCall)
            }
        case .error(let error):
            if call.streamError == nil { call.streamError = error }
        default:
            break  // other choices, empty deltas
        }
        if !sent.isEmpty { call.sentAnything = true }
        state = .calling(call)
        return sent.map(Action.emit)
    }

    /// The model call's stream ended.
    public mutating func modelEnded(now: Duration) -> [Action] { endCall(now: now) }

    /// The model call threw before or while streaming.
    public mutating func modelFailed(_ failure: ResearchMachine.ModelFailure, now: Duration) -> [Action] {
        failCall(failure, now: now)
    }

    /// A retry wait ended, the model call was silent for too long, or the answer's time budget ran out.
    public mutating func deadlinePassed(now: Duration) -> [Action] {
        if now >= configuration.maxAnswerTime, !isFinished {
            let open = if case .calling = state { true } else { false }
            return fail(
                code: "budget_exceeded",
                message: AnswerBudget.spentMessage(configuration.maxAnswerTime),
                closing: open)
        }
        switch state {
        case .waitingToRetry(let attempt, let until) where now >= until:
            return call(attempt: attempt + 1, now: now)
        case .calling(let call) where now >= configuration.idleDeadline(after: call.lastActivityAt):
            return fail(
                code: "model_timeout",
                message: "the model sent nothing for \(configuration.modelIdleTimeout.secondsText) s; the answer ends here",
                closing: true)
        default:
            return []
        }
    }

    var currentCall: Call? { if case .calling(let call) = state { call } else { nil } }

    /// The call finished: the answer completes with its usage, finish reason and model.
    mutating func callFinished(_ call: Call, finish: FinishReason, now: Duration) -> [Action] {
        calls += 1
        state = .finished
        return [.emit(.complete(Completion(metadata: metadata(call, finish: finish, now: now)))), .finish]
    }

    mutating func call(attempt: Int, now: Duration) -> [Action] {
        state = .calling(Call(attempt: attempt, lastActivityAt: now))
        return [.callModel(attempt: attempt)]
    }

    /// A call that failed: retried when nothing of it reached the readers, the failure may pass and
    /// attempts remain; otherwise the answer ends with `error`.
    mutating func callFailed(_ call: Call, _ failure: ModelCallFailure, now: Duration) -> [Action] {
        calls += 1
        if let delay = configuration.retry.delayBeforeRetrying(
            failedAttempt: call.attempt, retryable: failure.retryable, sentAnything: call.sentAnything,
            retryAfter: failure.retryAfter, random: &random)
        {
            state = .waitingToRetry(attempt: call.attempt, until: now + delay)
            return [.closeModelCall]
        }
        let attempts = ReliabilityConfiguration.attemptsMade(call.attempt)
        return fail(code: failure.code, message: failure.message + attempts, closing: true)
    }

    /// Ends the answer because the model call used more tokens than its budget, keeping what was sent.
    mutating func overBudget(tokens used: Int) -> [Action] {
        fail(
            code: "budget_exceeded",
            message: "the answer's model call used \(used) tokens (input plus output), past its budget of \(configuration.maxAnswerTokens); it ends here with the text so far",
            closing: true)
    }

    /// Ends the answer with an `error` event after what was sent.
    mutating func fail(code: String, message: String, closing: Bool) -> [Action] {
        state = .finished
        return (closing ? [.closeModelCall] : []) + [.emit(.error(code: code, message: message)), .finish]
    }

    /// The `complete` event's metadata.
    func metadata(_ call: Call, finish: FinishReason, now: Duration) -> [String: JSONValue] {
        let usage = call.usage ?? ModelUsage()
        var metadata: [String: JSONValue] = [
            "engine": .string(Self.engineName),
            "finish_reason": .string(finish.name),
            "usage": AnswerMetadata.usage(usage),
            "budget": AnswerBudget.metadata(
                time: now, timeLimit: configuration.maxAnswerTime,
                tokens: (usage.inputTokens + usage.outputTokens, configuration.maxAnswerTokens)),
            "model_calls": .number(Double(calls)),
            "total_ms": .number(AnswerBudget.milliseconds(now)),
        ]
        if let model { metadata["model"] = .string(model) }
        if call.toolCalls.droppedFragments > 0 {
            metadata["tool_call_fragments_dropped"] = .number(Double(call.toolCalls.droppedFragments))
        }
        return metadata
    }
}
