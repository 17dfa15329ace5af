public import CadenceCore

/// An engine held to a time budget: each answer of `base` that runs past `limit` on `clock` ends
/// with an `error` event whose code is `budget_exceeded`, and `base`'s answer is cancelled, so its
/// work stops, not only its output. What `base` sent before stays sent. A `complete` within the
/// limit gets the time used in its metadata, as `budget: {"time_ms", "time_limit_ms"}` (unless
/// `base` reported a budget of its own).
///
/// The default of ``AnswerEngine/timeBudgeted(_:clock:)``, which a server applies to every engine:
///
/// ```swift
/// let engine = CorpusEngine(corpus: try Corpus.bundled()).timeBudgeted(.seconds(600), clock: ContinuousClock())
/// ```
public struct TimeBudgetedEngine: AnswerEngine {
    /// The engine that answers.
    public let base: any AnswerEngine
    /// The longest an answer may take.
    public let limit: Duration
    let clock: any Clock<Duration>

    public init(base: any AnswerEngine, limit: Duration, clock: any Clock<Duration>) {
        self.base = base
        self.limit = limit
        self.clock = clock
    }

    /// How one answer's race ended.
    enum Outcome: Sendable {
        case ended, failed(any Error), cancelled, budgetRanOut
    }

    public func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        let (base, limit) = (self.base, self.limit)
        let (elapsed, sleepUntilLimit) = Self.timing(clock, limit: limit)
        return .producing { emit in
            // The answer and the budget race; the first to end cancels the other, and the stream is
            // ended here, after both, so nothing follows the budget's error.
            let outcome = await withTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    do {
                        for try await kind in base.answer(request) {
                            guard emit(Self.stamped(kind, elapsed: elapsed(), limit: limit)) else { return .cancelled }
                        }
                        return Task.isCancelled ? .cancelled : .ended
                    } catch {
                        return Task.isCancelled ? .cancelled : .failed(error)
                    }
                }
                group.addTask {
                    do { try await sleepUntilLimit() } catch { return .cancelled }
                    return .budgetRanOut
                }
                let first = await group.next() ?? .cancelled
                group.cancelAll()
                return first
            }
            switch outcome {
            case .ended, .cancelled:
                return
            case .failed(let error):
                throw error
            case .budgetRanOut:
                _ = emit(.error(code: "budget_exceeded", message: AnswerBudget.spentMessage(limit)))
            }
        }
    }

    public func observed(by observer: any AnswerEngineObserver) -> any AnswerEngine {
        TimeBudgetedEngine(base: base.observed(by: observer), limit: limit, clock: clock)
    }

    /// `kind`, with the time used added to a `complete` that reports no budget.
    static func stamped(_ kind: ResearchEvent.Kind, elapsed: Duration, limit: Duration) -> ResearchEvent.Kind {
        guard case .complete(var completion) = kind, completion.metadata["budget"] == nil else { return kind }
        completion.metadata["budget"] = AnswerBudget.metadata(time: elapsed, timeLimit: limit)
        return .complete(completion)
    }

    /// The time since now on `clock`, and a sleep until `limit` after now.
    static func timing<C: Clock<Duration>>(_ clock: C, limit: Duration)
        -> (elapsed: @Sendable () -> Duration, sleepUntilLimit: @Sendable () async throws -> Void)
    {
        let start = clock.now
        return ({ start.duration(to: clock.now) }, { try await clock.sleep(until: start.advanced(by: limit), tolerance: nil) })
    }
}
