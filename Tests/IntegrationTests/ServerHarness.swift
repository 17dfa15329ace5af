import CadenceCore
import CadenceEngine
import CadenceServer

/// Starts the real reference server on 127.0.0.1:0 for the duration of `body`.
func withServer<T>(
    engine: any AnswerEngine = CorpusEngine(corpus: try! Corpus.bundled(), tokenDelay: .zero, stageDelay: .zero),
    configuration: ServerConfiguration = ServerConfiguration(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningServer) async throws -> T
) async throws -> T {
    let running = try await ReferenceServer(engine: engine, configuration: configuration).start()
    return try await withReleasing(running, release: { await $0.shutdown() }, body)
}

/// 1, 2, … `count`: the sequence numbers of `count` events, and none for none, where `Array(1...count)`
/// would trap and end the whole test process when a connection received nothing.
func numbered(_ count: Int) -> [Int] { Array(1..<count + 1) }

/// The question the transport suites ask: the built-in corpus answers it at length, with enough
/// events to cut and resume anywhere.
let transportQuestion = AnswerRequest(query: "How does resume with Last-Event-ID work?")
