import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

@Suite("Polling transport")
struct TransportPollingTests {
    @Test("rapid messages in one conversation are matched by message id")
    func rapidMessages() async throws {
        try await withServer(engine: instantEngine) { server in
            let polling = PollingTransport(baseURL: server.baseURL, conversationID: "rapid", clock: ManualClock.stepping(sleepLimit: .max))
            let questions = ["What is BM25?", "How do WebSockets work?", "What is backpressure?"].map {
                AnswerRequest(query: $0)
            }
            let connections = try await questions.asyncMap { try await polling.open($0, resume: nil) }
            #expect(Set(connections.compactMap(\.answerID)).count == 3)
            for (question, connection) in zip(questions, connections).reversed() {
                let polled = await receive(connection)
                let (_, streamed) = await openAndReceive(SSETransport(baseURL: server.baseURL), question)
                #expect(polled.error == nil)
                #expect(polled.text == streamed.text)
            }
        }
    }

    @Test("polls wait the interval on the injected clock")
    func interval() async throws {
        let script = FaultScript.answer(text: "one two three four five six", tokenCharacters: 4)
        let server = try await FaultServer.start(script: script, pollBatch: 3)
        defer { Task { await server.shutdown() } }
        let clock = ManualClock()
        let polling = PollingTransport(baseURL: server.baseURL, interval: .seconds(2), clock: clock)
        let connection = try await polling.open(transportQuestion, resume: nil)
        let reader = Task { await receive(connection) }
        let polls = (script.lastSequence + 2) / 3
        for poll in 2...polls {
            await clock.waitForSleeps { !$0.isEmpty }
            // The POST and `poll - 1` polls so far; the next one waits for the clock.
            #expect(server.requests.count == poll)
            clock.advance(by: .seconds(1))
            #expect(server.requests.count == poll, "no poll before the interval has passed")
            clock.advance(by: .seconds(1))
        }
        let received = await reader.value
        #expect(received.text == script.text)
        #expect(received.endsWithComplete)
        #expect(server.requests.count == 1 + polls)
        await server.shutdown()
    }

    @Test("a poll with nothing new is a keepalive, not an event")
    func emptyPollIsKeepalive() async throws {
        let engine = ScriptedEngine()
        let clock = ManualClock()
        try await withServer(engine: engine) { server in
            engine.push(.token("first"))
            let polling = PollingTransport(baseURL: server.baseURL, conversationID: "quiet", clock: clock)
            let connection = try await polling.open(transportQuestion, resume: nil)
            let reader = Task { await receive(connection) }
            // Poll 1 (immediate) may or may not see the token; polls 2 and 3 come after the clock moves.
            await clock.tick(every: .seconds(2), times: 2)
            engine.push(.complete(Completion()))
            engine.finish()
            // Reading the answer to its end over SSE proves the server has finished it before the next poll.
            let answerID = try #require(connection.answerID)
            let (_, tail) = await openAndReceive(
                SSETransport(baseURL: server.baseURL), transportQuestion, resume: ResumeCursor(answerID: answerID, lastSequence: 1))
            #expect(tail.sequences == [2])
            clock.advance(by: .seconds(2))
            let received = await reader.value
            #expect(received.error == nil)
            #expect(received.sequences == [1, 2])
            #expect(received.keepalives >= 1)
            #expect(received.text == "first")
        }
    }

    @Test("transient poll failures are logged and polling goes on")
    func transientErrors() async throws {
        let script = FaultScript.answer(text: "Grüße aus Köln 🎉 und mehr", tokenCharacters: 3)
        let server = try await FaultServer.start(script: script, pollBatch: 4)
        defer { Task { await server.shutdown() } }
        server.enqueue(.none, .status(503), .closeAfter(bytes: 9), .none, .status(429, headers: ["retry-after": "1"]), .status(500))
        let polling = PollingTransport(baseURL: server.baseURL, clock: ManualClock.stepping(sleepLimit: .max))
        let (id, received) = await openAndReceive(polling, transportQuestion)
        #expect(id == server.answerID)
        #expect(received.error == nil)
        #expect(received.text == script.text)
        #expect(received.sequences == Array(1...script.lastSequence))
        #expect(server.requests.count > 6)
        await server.shutdown()
    }

    @Test("a failed POST is thrown by open with its status and retryability", arguments: [500, 400])
    func postFails(status: Int) async throws {
        let server = try await FaultServer.start(script: .answer(text: "x"))
        defer { Task { await server.shutdown() } }
        server.enqueue(.status(status))
        let (_, received) = await openAndReceive(PollingTransport(baseURL: server.baseURL, clock: ManualClock.stepping(sleepLimit: .max)), transportQuestion)
        #expect(received.clientError?.status == status)
        #expect(received.clientError?.retryable == (status == 500))
        await server.shutdown()
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
