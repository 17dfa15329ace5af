import CadenceCore
import CadenceEngine

/// Runs an answer engine for one request, handing each event to a sink, the same way for every
/// registry: an engine that throws ends the answer with an `engine_failed` error, one that stops
/// without a final word ends it with one too, and nothing is passed on after a terminal event. Every
/// event passes through ``EventBounds`` on its way: long deltas become several `token` events, and
/// no event is larger than 1 MiB.
enum AnswerProduction {
    /// - Parameter emit: takes one event; returns `false` when the answer has ended elsewhere
    ///   (cancelled, taken over), which stops the engine. The engine calls it from the running task
    ///   (``AnswerEngine/produce(_:emit:)``), so an event is logged without a hand-off.
    static func run(
        _ engine: any AnswerEngine, _ request: AnswerRequest, bounds: EventBounds = EventBounds(),
        emit: (ResearchEvent.Kind) -> Bool
    ) async {
        var over = false
        do {
            try await engine.produce(request) { kind in
                for piece in bounds.bounded(kind) {
                    guard emit(piece) else {
                        over = true
                        return false
                    }
                }
                if kind.isTerminal { over = true }
                return !over
            }
            guard !over else { return }
            try Task.checkCancellation()
            _ = emit(.error(code: "engine_failed", message: "the answer engine stopped without a final event"))
        } catch is CancellationError {
        } catch {
            guard !over else { return }
            let message = EventBounds.shortened("the answer engine failed: \(error)", to: 64 << 10)
            _ = emit(.error(code: "engine_failed", message: message))
        }
    }
}
