import CadenceTesting
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import Testing

@Suite("SSE transport and resume against the reference server")
struct TransportSSETests {
    @Test("the engine runs on after the client drops, and a resume continues live")
    func dropAndResumeLive() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let transport = SSETransport(baseURL: server.baseURL)
            engine.push(.searching(source: "docs"), .token("Hello"), .token(", "))
            // Read three events, then drop the connection (it is released when the closure returns).
            let (id, start) = try await { () async throws -> (String?, Received) in
                let first = try await transport.open(transportQuestion, resume: nil)
                return (first.answerID, await receive(first) { $0.events.count == 3 })
            }()
            let answerID = try #require(id)
            #expect(start.sequences == [1, 2, 3])
            // Produced while nobody is connected.
            engine.push(.token("wor"))
            let resumed = try await transport.open(transportQuestion, resume: ResumeCursor(answerID: answerID, lastSequence: 3))
            #expect(resumed.answerID == answerID)
            engine.push(.token("ld"), .complete(Completion()))
            engine.finish()
            let rest = await receive(resumed)
            #expect(rest.error == nil)
            #expect(rest.sequences == [4, 5, 6])
            #expect(start.text + rest.text == "Hello, world")
            #expect(rest.endsWithComplete)
        }
    }

    @Test("events dropped from the bounded replay log are a 410; later ones still replay")
    func evictedEvents() async throws {
        let engine = ScriptedEngine()
        var configuration = ServerConfiguration()
        configuration.replay = ReplayLimits(maxEvents: 5, window: .zero)
        try await withServer(engine: engine, configuration: configuration) { server in
            let transport = SSETransport(baseURL: server.baseURL)
            engine.push(.token("a"), .token("b"))
            let (id, start) = try await { () async throws -> (String?, Received) in
                let first = try await transport.open(transportQuestion, resume: nil)
                return (first.answerID, await receive(first) { $0.events.count == 2 })
            }()
            let answerID = try #require(id)
            #expect(start.text == "ab")
            for letter in "cdefghijkl" { engine.push(.token(String(letter))) }
            engine.push(.complete(Completion()))
            engine.finish()
            // Reading the last event proves every event was stored (and the early ones dropped).
            let (_, tail) = await openAndReceive(transport, transportQuestion, resume: ResumeCursor(answerID: answerID, lastSequence: 12))
            #expect(tail.sequences == [13])
            let (_, early) = await openAndReceive(
                transport, transportQuestion, resume: ResumeCursor(answerID: answerID, lastSequence: 2))
            let error = try #require(early.clientError)
            #expect(error.status == 410)
            #expect(error.body?.contains("events_evicted") == true)
            // The log keeps its last 5 entries: sequences 10, 11, 12, the flush marker and 13.
            let (_, late) = await openAndReceive(
                transport, transportQuestion, resume: ResumeCursor(answerID: answerID, lastSequence: 10))
            #expect(late.error == nil)
            #expect(late.text == "kl")
            #expect(late.sequences == [11, 12, 13])
        }
    }

    @Test("a finished answer is forgotten after its retention, then a resume is a 410")
    func forgottenAnswer() async throws {
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.replay = ReplayLimits(retention: .seconds(300))
        configuration.maxAnswerTime = nil  // the retention's is then the only sleep on the clock
        let running = try await ReferenceServer(engine: instantEngine, configuration: configuration, clock: clock).start()
        defer { Task { await running.shutdown() } }
        let transport = SSETransport(baseURL: running.baseURL)
        let (id, full) = await openAndReceive(transport, transportQuestion)
        let answerID = try #require(id)
        #expect(full.endsWithComplete)
        let resume = ResumeCursor(answerID: answerID, lastSequence: 2)
        // Still kept: a resume works.
        #expect(await openAndReceive(transport, transportQuestion, resume: resume).received.error == nil)
        await clock.waitForSleep(until: .seconds(300))
        clock.advance(by: .seconds(299))
        #expect(await openAndReceive(transport, transportQuestion, resume: resume).received.error == nil)
        clock.advance(by: .seconds(1))
        // The eviction runs on the registry actor right after the clock wakes it; wait for its effect.
        var status: Int?
        for _ in 0..<1_000 {
            status = await openAndReceive(transport, transportQuestion, resume: resume).received.clientError?.status
            if status != nil { break }
            await Task.yield()
        }
        #expect(status == 410)
        await running.shutdown()
    }
}
