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
}
