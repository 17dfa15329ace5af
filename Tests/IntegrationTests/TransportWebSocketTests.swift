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

    /// A cursor that is not a non-negative integer is refused like a bad `Last-Event-ID` (400), not
    /// read as "no cursor", which replayed the whole answer to a client that already had part of it.
    @Test(
        "a resume whose last_sequence is not a non-negative integer is refused with 400, and a good one still works",
        arguments: [#""5""#, "-1", "2.5", "null", "true", "[5]"])
    func malformedResumeCursor(lastSequence: String) async throws {
        try await withServer(engine: instantEngine) { server in
            let (id, full) = await openAndReceive(SSETransport(baseURL: server.baseURL), transportQuestion)
            let answerID = try #require(id)
            let (messages, closedNormally) = try await RawWebSocket.exchange(
                baseURL: server.baseURL,
                opening: #"{"resume": {"answer_id": "\#(answerID)", "last_sequence": \#(lastSequence)}}"#)
            #expect(closedNormally)
            let refusal = try #require(messages.first.map { try JSONValue(parsing: $0) })
            #expect(messages.count == 1, "the refusal is the only message: \(messages.prefix(3))")
            #expect(refusal["error"]?["status"]?.intValue == 400)
            #expect(refusal["error"]?["code"]?.stringValue == "invalid_request")
            #expect(refusal["error"]?["message"]?.stringValue?.contains("last_sequence") == true)

            // The answer is untouched: the same resume with a number replays exactly what follows it.
            let (good, _) = try await RawWebSocket.exchange(
                baseURL: server.baseURL, opening: #"{"resume": {"answer_id": "\#(answerID)", "last_sequence": 5}}"#)
            let sequences = good.dropFirst().compactMap { try? JSONValue(parsing: $0)["sequence"]?.intValue }
            #expect(sequences == full.sequences.filter { $0 > 5 })
        }
    }

    @Test("a quiet WebSocket stream sends keepalives, which are not events")
    func keepalives() async throws {
        let engine = ScriptedEngine()
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.keepAliveInterval = .seconds(15)
        configuration.maxAnswerTime = nil  // the keep-alive's is then the only sleep on the clock
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

    @Test("a handshake that never completes fails open with a retryable error after the connect timeout, on the injected clock")
    func handshakeTimeout() async throws {
        try await withServer(engine: instantEngine) { server in
            // The proxy forwards the upgrade request, then nothing of the response.
            let proxy = try StallProxy.start(upstreamPort: server.port)
            defer { proxy.shutdown() }
            proxy.freeze(afterResponseBytes: 0)
            let clock = ManualClock()
            let transport = WebSocketTransport(baseURL: proxy.baseURL, connectTimeout: .seconds(30), clock: clock)
            let opening = Task { await openAndReceive(transport, transportQuestion) }
            await clock.waitForSleep(until: .seconds(30))
            clock.advance(by: .seconds(30))
            let (answerID, received) = await opening.value
            #expect(answerID == nil)
            let error = try #require(received.clientError, "\(String(describing: received.error))")
            #expect(error.code == .transport)
            #expect(error.retryable)
            #expect(error.message.contains("did not name the answer within 30"), "\(error.message)")
        }
    }
}
