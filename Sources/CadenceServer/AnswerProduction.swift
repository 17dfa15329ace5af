import CadenceCore
import CadenceEngine

/// Runs an answer engine for one request, handing each event to a sink, the same way for every
/// registry: an engine that throws ends the answer with an `engine_failed` error, one that stops
/// without a final word ends it with one too, and nothing is passed on after a terminal event. Every
/// event passes through ``EventBounds`` on its way: long deltas become several `token` events, and
/// no event is larger than 1 MiB.
enum AnswerProduction {
    /// - Parameter emit: takes one event; returns `false` when the answer has ended elsewhere
    ///   (cancelled, taken over), which stops the engine.
    static func run(
        _ engine: any AnswerEngine, _ request: AnswerRequest, bounds: EventBounds = EventBounds(),
        emit: (ResearchEvent.Kind) async -> Bool
    ) async {
        do {
            for try await kind in engine.answer(request) {
                for piece in bounds.bounded(kind) {
                    guard await emit(piece) else { return }
                }
                guard !kind.isTerminal else { return }
            }
            try Task.checkCancellation()
            _ = await emit(.error(code: "engine_failed", message: "the answer engine stopped without a final event"))
        } catch is CancellationError {
        } catch {
            let message = EventBounds.shortened("the answer engine failed: \(error)", to: 64 << 10)
            _ = await emit(.error(code: "engine_failed", message: message))
        }
    }
}
