import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

/// A streaming answer that has sent its first token and then stays quiet until ``finish()``: what the
/// connection timeouts must leave alone, and what holds a `--max-connections` place.
struct QuietStream {
    let engine: ScriptedEngine
    private var items: TransportItems.AsyncIterator

    /// Opens an SSE answer on `server`, whose engine is `engine`, and reads its first token.
    static func open(on server: RunningServer, engine: ScriptedEngine, bearerToken: String? = nil) async throws
        -> QuietStream
    {
        let stream = try await SSETransport(baseURL: server.baseURL, bearerToken: bearerToken)
            .open(AnswerRequest(query: "q"), resume: nil)
        engine.push(.token("Hello"))
        var items = stream.items.makeAsyncIterator()
        #expect(try await items.next() == .event(ResearchEvent(sequence: 1, kind: .token("Hello"))))
        return QuietStream(engine: engine, items: items)
    }

    /// Ends the answer and checks that the rest of it arrived: the stream lived through the quiet.
    mutating func finish() async throws {
        engine.push(.token(" world"), .complete(Completion()))
        engine.finish()
        var rest: [TransportItem] = []
        while let item = try await items.next() { rest.append(item) }
        #expect(rest.contains(.event(ResearchEvent(sequence: 2, kind: .token(" world")))))
    }
}
