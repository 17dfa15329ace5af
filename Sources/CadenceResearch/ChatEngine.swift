public import CadenceClient
public import CadenceCore
public import CadenceEngine

/// An `AnswerEngine` that relays a model's own answer to the conversation: the server as a
/// resumable chat backend for any model, whatever dialect it speaks.
///
/// Each answer is one model call (the request's history, then its question, after the provider's
/// system prompt), driven by a ``ChatMachine``: text, reasoning, refusals and whole tool calls
/// stream as `token`, `reasoning`, `refusal` and `tool_call` events, and `complete` carries the
/// usage, the finish reason and the model. A 429 or 5xx before anything was sent is retried on the
/// injected clock, honouring `Retry-After`; the model idle timeout and the answer's time and token
/// budgets end the answer with an error after what was sent. Cancelling the consumer of
/// ``answer(_:)`` closes the model request at once.
///
/// ```swift
/// let provider = ModelProvider(kind: .ollama, model: "llama3.2", system: "Answer briefly.")
/// let engine = ChatEngine(client: ModelClient(provider: provider), configuration: ChatConfiguration(maxOutputTokens: 800))
/// let server = ReferenceServer(engine: engine)
/// ```
public struct ChatEngine: ModelDrivenEngine {
    /// The model the answers come from, with its provider's system prompt.
    public var client: ModelClient
    /// The limits of each answer.
    public var configuration: ChatConfiguration
    /// Told how long each model call took to send its first token (a server's metrics).
    public var observer: (any AnswerEngineObserver)?
    let makeTimer: @Sendable () -> DeadlineTimer
    let makeRandom: @Sendable () -> any RandomNumberGenerator & Sendable

    public init(
        client: ModelClient, configuration: ChatConfiguration = ChatConfiguration(),
        clock: some Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> any RandomNumberGenerator & Sendable = { SystemRandomNumberGenerator() }
    ) {
        self.client = client
        self.configuration = configuration
        self.makeTimer = { DeadlineTimer(clock) }
        self.makeRandom = random
    }

    public func produce(_ request: AnswerRequest, emit: (ResearchEvent.Kind) -> Bool) async throws {
        let machine = ChatMachine(
            request: request, configuration: configuration, model: client.provider.model, random: makeRandom())
        await ChatDriver.run(machine, engine: self, timer: makeTimer(), emit: emit)
    }
}

/// The loop that owns one chat answer's machine, model call and timer: ``ResearchDriver``'s loop
/// without searches, delivering through the same model-call task (``ResearchDriver/startCall``).
///
/// The two loops stay two: research's also runs searches whose results go back into its machine in
/// the middle of its actions, and the machines speak different `Action` enums; one generic loop
/// would need a protocol over both for the dozen lines they share.
enum ChatDriver {
    static func run(
        _ initial: ChatMachine, engine: ChatEngine, timer: DeadlineTimer,
        emit: (ResearchEvent.Kind) -> Bool
    ) async {
        var machine = initial
        let loop = DriverLoop<ResearchDriver.Delivery>(timer: timer)
        let now = loop.now
        let options = ModelRequestOptions(maxTokens: engine.configuration.maxOutputTokens)
        /// When the current model call was made, until its first token arrives.
        var callAwaitingFirstToken: Duration?
        defer { loop.end() }

        /// Performs the machine's actions; returns false once the answer is over.
        func perform(_ actions: [ChatMachine.Action]) -> Bool {
            for action in actions {
                if Task.isCancelled { return false }
                switch action {
                case .emit(let event):
                    guard emit(event) else { return false }
                case .finish:
                    return false
                case .closeModelCall:
                    loop.closeTask()
                    callAwaitingFirstToken = nil
                case .callModel:
                    callAwaitingFirstToken = now()
                    let turns = machine.turns
                    loop.start {
                        ResearchDriver.startCall(turns, options: options, client: engine.client, deliver: $0)
                    }
                }
            }
            loop.keep(machine.nextDeadline)
            return true
        }

        guard perform(machine.start(now: .zero)) else { return }
        let over = await loop.run(deadlinePassed: { perform(machine.deadlinePassed(now: now())) }) { delivery in
            switch delivery {
            case .event(let event):
                if let madeAt = callAwaitingFirstToken, event.isToken {
                    callAwaitingFirstToken = nil
                    engine.observer?.modelFirstToken(after: now() - madeAt)
                }
                return perform(machine.modelEvent(event, now: now()))
            case .ended:
                return perform(machine.modelEnded(now: now()))
            case .failed(let failure):
                return perform(machine.modelFailed(failure, now: now()))
            case .searched, .pagesRead:
                // A chat answer starts no searches and reads no pages.
                return true
            }
        }
        // The consumer went away (the answer was cancelled): close the model call.
        if !over { _ = machine.cancel() }
    }
}
