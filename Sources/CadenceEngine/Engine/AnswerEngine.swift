public import CadenceCore

/// Something that answers a question as a stream of research events.
///
/// Events carry no sequence numbers: the server numbers them as it sends them. The stream ends
/// after `.complete`, or early when the consuming task is cancelled.
///
/// ```swift
/// let engine: any AnswerEngine = CorpusEngine(corpus: try Corpus.bundled())
/// for try await event in engine.answer(AnswerRequest(query: "What is SSE?")) {
///     if case .token(let text) = event { print(text, terminator: "") }
/// }
/// ```
public protocol AnswerEngine: Sendable {
    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error>

    /// Answers in the calling task, handing each event to `emit` as it is made: the events of
    /// ``answer(_:)`` without a stream between the engine and its consumer (a server's log), so
    /// that an event reaches the consumer with no hand-off to another task. Returns after the
    /// terminal event, when `emit` returns `false`, or when the task is cancelled. The default
    /// reads ``answer(_:)``; an engine that runs its own loop runs it here directly.
    func produce(_ request: AnswerRequest, emit: (ResearchEvent.Kind) -> Bool) async throws

    /// This engine, reporting what it measures about its own work to `observer` (a server hands it
    /// its metrics). An engine with nothing to report returns itself, which is the default.
    func observed(by observer: any AnswerEngineObserver) -> any AnswerEngine

    /// This engine, ending each answer that runs longer than `limit` (measured on `clock`) with an
    /// `error` event whose code is `budget_exceeded`, after the text so far; a `complete` within the
    /// limit reports the time used in its `budget` metadata. By default a ``TimeBudgetedEngine``
    /// wraps the engine; an engine that keeps its own budget (and its own clock) takes the limit
    /// instead, so it decides, names the stage it was in, and counts the time with the rest.
    func timeBudgeted(_ limit: Duration, clock: any Clock<Duration>) -> any AnswerEngine
}

extension AnswerEngine {
    public func produce(_ request: AnswerRequest, emit: (ResearchEvent.Kind) -> Bool) async throws {
        for try await kind in answer(request) {
            guard emit(kind), !kind.isTerminal else { return }
        }
    }

    public func observed(by observer: any AnswerEngineObserver) -> any AnswerEngine { self }

    public func timeBudgeted(_ limit: Duration, clock: any Clock<Duration>) -> any AnswerEngine {
        TimeBudgetedEngine(base: self, limit: limit, clock: clock)
    }
}

/// What an ``AnswerEngine`` reports about its own work while it answers, for a server's metrics.
///
/// ```swift
/// struct LatencyLog: AnswerEngineObserver {
///     func modelFirstToken(after latency: Duration) { print("first token after \(latency)") }
/// }
/// let engine = ModelResearchEngine(corpus: corpus, client: client).observed(by: LatencyLog())
/// ```
public protocol AnswerEngineObserver: Sendable {
    /// A model call sent its first token (text, reasoning, a refusal or a tool call) `latency` after
    /// it was made. Reported once per call, retries included.
    func modelFirstToken(after latency: Duration)
}
