import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceServer
import CadenceTesting
import NIOCore
import Testing

/// `DELETE /v1/answers/{id}` against the real server, and the client transports that send it.
/// (A client that merely disconnects does not cancel: see `TransportSSETests.dropAndResumeLive`.)
@Suite("Cancelling an answer")
struct AnswerCancelTests {
    static let question = AnswerRequest(query: "How does resume work?")

    /// Sends `DELETE /v1/answers/{id}` and returns the status and the body.
    static func delete(_ server: RunningServer, _ id: String) async throws -> (Int, JSONValue?) {
        var request = HTTPClientRequest(url: server.baseURL + "/v1/answers/" + id)
        request.method = .DELETE
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), try? JSONValue(parsing: String(buffer: body)))
    }

    @Test func deleteEndsTheAnswerForItsReadersAndStopsTheEngine() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let transport = SSETransport(baseURL: server.baseURL)
            engine.push(.token("Partial "))
            let connection = try await transport.open(Self.question, resume: nil)
            let id = try #require(connection.answerID)
            var items = connection.items.makeAsyncIterator()
            var events: [ResearchEvent] = []
            while case .event(let event)? = try await items.next() {
                events.append(event)
                if case .token = event.kind { break }
            }

            let (status, body) = try await Self.delete(server, id)
            #expect(status == 200)
            #expect(body == ["id": .string(id), "status": "cancelled"])
            await engine.cancelled.wait()  // the engine's stream was cancelled, not drained
            engine.push(.token("never sent"), .complete(Completion()))

            while let item = try await items.next() {
                if case .event(let event) = item { events.append(event) }
            }
            #expect(events.map(\.kind) == [.token("Partial "), .error(code: "cancelled", message: "the answer was cancelled by the client")])

            // A resume replays up to the cancellation, and no further.
            let resumed = await openAndReceive(transport, Self.question, resume: ResumeCursor(answerID: id, lastSequence: 1))
            #expect(resumed.received.events.map(\.kind) == [.error(code: "cancelled", message: "the answer was cancelled by the client")])

            let (again, againBody) = try await Self.delete(server, id)
            #expect(again == 409)
            #expect(againBody?["error"]?["code"] == .string("answer_finished"))
            let (unknown, unknownBody) = try await Self.delete(server, "ans_nope")
            #expect(unknown == 404)
            #expect(unknownBody?["error"]?["code"] == .string("answer_not_found"))
        }
    }

    @Test func anAnswerWhoseFirstEventsLeftTheReplayLogCanStillBeCancelled() async throws {
        let engine = ScriptedEngine()
        var configuration = ServerConfiguration()
        configuration.replay = ReplayLimits(maxEvents: 2, window: .zero)
        try await withServer(engine: engine, configuration: configuration) { server in
            // One token at a time, each read before the next, so the reader itself never falls behind.
            let connection = try await SSETransport(baseURL: server.baseURL).open(Self.question, resume: nil)
            let id = try #require(connection.answerID)
            var items = connection.items.makeAsyncIterator()
            for token in ["a", "b", "c", "d"] {
                engine.push(.token(token))
                while case .event(let event)? = try await items.next() {
                    if case .token = event.kind { break }
                }
            }
            let (status, body) = try await Self.delete(server, id)
            try #require(status == 200, "\(String(describing: body))")
            await engine.cancelled.wait()
        }
    }

    @Test func aFinishedAnswerCannotBeCancelled() async throws {
        try await withServer(engine: instantEngine) { server in
            let (id, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            #expect(received.endsWithComplete)
            let (status, _) = try await Self.delete(server, try #require(id))
            #expect(status == 409)
        }
    }

    @Test func anAnswerStreamWhoseReaderIsCancelledCancelsTheAnswerOnTheServer() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("Hello"))
            let stream = AnswerStream(request: Self.question, transport: SSETransport(baseURL: server.baseURL))
            let (firstText, textContinuation) = AsyncStream<Void>.makeStream()
            let reader = Task {
                for await update in stream {
                    if case .textAppended = update { textContinuation.yield() }
                }
            }
            for await _ in firstText { break }
            reader.cancel()
            await engine.cancelled.wait()
        }
    }

    @Test func anAnswerStreamLeftEarlyCancelsTheAnswerOnTheServer() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("Hello"))
            let stream = AnswerStream(request: Self.question, transport: SSETransport(baseURL: server.baseURL))
            for await update in stream {
                if case .textAppended = update { break }
            }
            await engine.cancelled.wait()
        }
    }

    @Test(arguments: ["websocket", "polling"])
    func everyTransportSendsTheCancel(transportName: String) async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let (id, _) = await openAndReceive(
                SSETransport(baseURL: server.baseURL), Self.question, resume: nil, stopAfter: 0)
            let transport: any ResearchTransport =
                transportName == "websocket"
                ? WebSocketTransport(baseURL: server.baseURL) : PollingTransport(baseURL: server.baseURL)
            try await transport.cancelAnswer(id: try #require(id))
            await engine.cancelled.wait()
            let (status, _) = try await Self.delete(server, try #require(id))
            #expect(status == 409, "the first cancel went through")
            // Cancelling what is already over is not an error for a client.
            try await transport.cancelAnswer(id: try #require(id))
        }
    }
}
