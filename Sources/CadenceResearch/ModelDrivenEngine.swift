public import CadenceCore
public import CadenceEngine

/// An engine whose answers a model drives through a machine of its own, run in
/// `AnswerEngine.produce(_:emit:)`: ``ChatEngine`` and ``ModelResearchEngine``.
///
/// Its machine keeps the answer's time budget on the engine's clock and reports the time used in
/// the completion's `budget`, so the engine takes a server's limit into its configuration instead
/// of being wrapped in a `TimeBudgetedEngine`.
public protocol ModelDrivenEngine: AnswerEngine {
    associatedtype Limits: ModelAnswerLimits
    /// The limits of each answer.
    var configuration: Limits { get set }
    /// Told how long each model call took to send its first token (a server's metrics).
    var observer: (any AnswerEngineObserver)? { get set }
}

/// The time limits of a model-driven answer that the engine's own machine enforces.
public protocol ModelAnswerLimits: Sendable {
    /// How long one answer may take, from its start to its terminal event.
    var maxAnswerTime: Duration { get set }
    /// How long a model call may send nothing before the answer ends.
    var modelIdleTimeout: Duration { get }
}

extension ModelAnswerLimits {
    /// When a model call last heard from at `lastActivity` has been silent too long.
    func idleDeadline(after lastActivity: Duration) -> Duration { lastActivity + modelIdleTimeout }

    /// `deadline`, or the end of the answer's time budget if that comes first.
    func withinBudget(_ deadline: Duration) -> Duration { min(deadline, maxAnswerTime) }
}

extension ModelDrivenEngine {
    public func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        .producing { [self] emit in try await produce(request, emit: emit) }
    }

    public func observed(by observer: any AnswerEngineObserver) -> any AnswerEngine {
        var engine = self
        engine.observer = observer
        return engine
    }

    /// This engine with its answers' time budget (``ModelAnswerLimits/maxAnswerTime``) cut to
    /// `limit` if that is shorter: the machine decides, on the clock the engine was made with
    /// (`clock` is not used), names the stage the answer was in when its time ran out, and reports
    /// the time used with the tokens in one `budget`.
    public func timeBudgeted(_ limit: Duration, clock: any Clock<Duration>) -> any AnswerEngine {
        var engine = self
        engine.configuration.maxAnswerTime = min(configuration.maxAnswerTime, limit)
        return engine
    }
}

extension ChatConfiguration: ModelAnswerLimits {}
extension ResearchConfiguration: ModelAnswerLimits {}
