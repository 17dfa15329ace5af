import CadenceCore
import CadenceEngine

/// Runs an answer engine for one request, handing each event to a sink, the same way for every
/// registry: an engine that throws ends the answer with an `engine_failed` error, one that stops
/// without a final word ends it with one too, and nothing is passed on after a terminal event.
enum AnswerProduction {
    /// - Parameter emit: takes one event; returns `false` when the answer has ended elsewhere
    ///   (cancelled, taken over), which stops the engine.
    static func run(
        _ engine: any AnswerEngine, _ request: AnswerRequest,
        emit: (ResearchEvent.Kind) async -> Bool
    ) async {
        do {
            for try await kind in engine.answer(request) {
                guard await emit(kind), !kind.isTerminal else { return }
            }
            try Task.checkCancellation()
            _ = await emit(.error(code: "engine_failed", message: "the answer engine stopped without a final event"))
        } catch is CancellationError {
        } catch {
            _ = await emit(.error(code: "engine_failed", message: "the answer engine failed: \(error)"))
        }
    }
}
