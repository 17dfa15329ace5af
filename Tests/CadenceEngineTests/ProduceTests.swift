import CadenceCore
import Testing

@testable import CadenceEngine

/// ``AnswerEngine/produce(_:emit:)`` as every engine has it by default: the events of `answer(_:)`,
/// handed over in the calling task.
@Suite("An engine's answer handed to a consumer")
struct ProduceTests {
    @Test("produce hands over the same events as answer, ending with the terminal one")
    func sameEventsAsTheStream() async throws {
        let engine = CorpusEngine(corpus: try Corpus.bundled(), tokenDelay: .zero, stageDelay: .zero)
        let streamed = try await AnswerRun(engine, "How does resume work?").events
        var produced: [ResearchEvent.Kind] = []
        try await engine.produce(AnswerRequest(query: "How does resume work?")) { produced.append($0); return true }
        #expect(produced.count == streamed.count)
        #expect(produced.map(\.wireType) == streamed.map(\.wireType))
        #expect(produced.last?.isTerminal == true)
    }

    @Test("produce stops at once when the consumer says no")
    func stopsWhenRefused() async throws {
        let engine = CorpusEngine(corpus: try Corpus.bundled(), tokenDelay: .zero, stageDelay: .zero)
        var produced = 0
        try await engine.produce(AnswerRequest(query: "How does resume work?")) { _ in
            produced += 1
            return produced < 3
        }
        #expect(produced == 3)
    }
}
