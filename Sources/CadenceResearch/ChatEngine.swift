public import CadenceClient
public import CadenceCore
public import CadenceEngine
import CadenceSearch

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

/// What the loop does for a chat answer's actions: ``ModelDriver``'s loop with one model call and
/// no work of its own.
enum ChatDriver {
    static func run(
        _ machine: ChatMachine, engine: ChatEngine, timer: DeadlineTimer, emit: (ResearchEvent.Kind) -> Bool
    ) async {
        let options = ModelRequestOptions(maxTokens: engine.configuration.maxOutputTokens)
        await ModelDriver.run(machine, client: engine.client, timer: timer, observer: engine.observer, emit: emit) {
            action, machine in
            switch action {
            case .emit(let event): .emit(event)
            case .finish: .finish
            case .callModel: .callModel(machine.turns, options)
            case .closeModelCall: .closeModelCall
            }
        }
    }
}

extension ChatMachine.Call: ModelCallProgress {}

extension ChatMachine: ModelCallingMachine {
    /// A chat answer starts no searches.
    mutating func searchCompleted(_ outcomes: [SearchOutcome], now: Duration) -> [Action] { [] }
    /// A chat answer reads no pages.
    mutating func pagesRead(_ readings: [PageReading], now: Duration) -> [Action] { [] }
}
