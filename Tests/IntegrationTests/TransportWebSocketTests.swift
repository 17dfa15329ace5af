import CadenceTesting
import CadenceClient
import CadenceCore
import CadenceServer
import Testing

@Suite("WebSocket transport against the reference server")
struct TransportWebSocketTests {
    @Test("an answer started over SSE can be resumed over a WebSocket")
    func crossTransportResume() async throws {
        try await withServer(engine: instantEngine) { server in
            let (id, full) = await openAndReceive(SSETransport(baseURL: server.baseURL), transportQuestion)
            let answerID = try #require(id)
            let (_, resumed) = await openAndReceive(
                WebSocketTransport(baseURL: server.baseURL), transportQuestion,
                resume: ResumeCursor(answerID: answerID, lastSequence: 10))
            #expect(resumed.events == full.events.filter { ($0.sequence ?? 11) > 10 })
        }
    }

    @Test("an empty query over a WebSocket is refused with status 400")
    func badRequest() async throws {
        try await withServer(engine: instantEngine) { server in
            let (_, received) = await openAndReceive(WebSocketTransport(baseURL: server.baseURL), AnswerRequest(query: " "))
            #expect(received.clientError?.status == 400)
        }
    }

    @Test("a quiet WebSocket stream sends keepalives, which are not events")
    func keepalives() async throws {
        let engine = ScriptedEngine()
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.keepAliveInterval = .seconds(15)
        let running = try await ReferenceServer(engine: engine, configuration: configuration, clock: clock).start()
        defer { Task { await running.shutdown() } }
        engine.push(.token("quiet"))
        let connection = try await WebSocketTransport(baseURL: running.baseURL).open(transportQuestion, resume: nil)
        let reader = Task { await receive(connection) }
        // The first tick may see the first event as news; the second one certainly sees quiet.
        await clock.tick(every: .seconds(15), times: 2)
        engine.push(.complete(Completion()))
        engine.finish()
        let received = await reader.value
        #expect(received.error == nil)
        #expect(received.keepalives >= 1)
        #expect(received.sequences == [1, 2])
        await running.shutdown()
    }
}
