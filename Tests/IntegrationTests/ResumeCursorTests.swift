import AsyncHTTPClient
import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
import NIOCore
import Testing

/// A cursor past an answer's last event: no client was sent that sequence, so the server refuses it
/// with `416 cursor_out_of_range` on every transport (it used to answer 200 with nothing, which a
/// client read as a drop and resumed again, or waited on for events that would never be its own).
@Suite("Resume cursors past the end of an answer")
struct ResumeCursorTests {
    static let question = AnswerRequest(query: "How does resume work?")

    /// `GET path` on the server: the status and the body as JSON.
    static func get(_ server: RunningServer, _ path: String) async throws -> (Int, JSONValue?) {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.baseURL + path), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), try? JSONValue(parsing: String(buffer: body)))
    }

    /// Checks that `error` is the out-of-range refusal and that its message gives the event count.
    static func expectOutOfRange(
        _ error: CadenceClientError?, events: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error?.status == 416, sourceLocation: sourceLocation)
        #expect(error?.retryable == false, sourceLocation: sourceLocation)
        #expect(error?.body?.contains("cursor_out_of_range") == true, sourceLocation: sourceLocation)
        #expect(
            error?.message.contains("\(events) events") == true, "\(String(describing: error))",
            sourceLocation: sourceLocation)
    }

    @Test("an ended answer: past its last event is a 416 over SSE, WebSocket and polling; at it, the end")
    func endedAnswer() async throws {
        try await withServer(engine: instantEngine) { server in
            let conversation = "c1"
            let (status, posted) = try await {
                var request = HTTPClientRequest(url: server.baseURL + "/v1/conversations/\(conversation)/messages")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: #"{"query": "How does resume work?"}"#))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                return (Int(response.status.code), try? JSONValue(parsing: String(buffer: body)))
            }()
            #expect(status == 201)
            let id = try #require(posted?["message_id"]?.stringValue)
            // Read it to its end, so the answer has ended and its length is known.
            let (_, full) = await openAndReceive(
                SSETransport(baseURL: server.baseURL), Self.question,
                resume: ResumeCursor(answerID: id, lastSequence: 0))
            #expect(full.endsWithComplete)
            let last = try #require(full.sequences.last)

            for transport in [SSETransport(baseURL: server.baseURL), WebSocketTransport(baseURL: server.baseURL)]
                as [any ResearchTransport]
            {
                let (_, past) = await openAndReceive(
                    transport, Self.question, resume: ResumeCursor(answerID: id, lastSequence: last + 1))
                Self.expectOutOfRange(past.clientError, events: last)
                #expect(past.events.isEmpty)
                // At the last event there is nothing more, and the stream simply ends.
                let (_, atEnd) = await openAndReceive(
                    transport, Self.question, resume: ResumeCursor(answerID: id, lastSequence: last))
                #expect(atEnd.error == nil)
                #expect(atEnd.sequences.isEmpty)
            }
            let (pastStatus, pastBody) = try await Self.get(
                server, "/v1/conversations/\(conversation)/messages?message_id=\(id)&since=\(last + 40)")
            #expect(pastStatus == 416)
            #expect(pastBody?["error"]?["code"]?.stringValue == "cursor_out_of_range")
            let (atStatus, atBody) = try await Self.get(
                server, "/v1/conversations/\(conversation)/messages?message_id=\(id)&since=\(last)")
            #expect(atStatus == 200)
            #expect(atBody?["done"]?.boolValue == true)
            #expect(atBody?["events"]?.arrayValue?.isEmpty == true)
            // `?after=` is the same cursor as `Last-Event-ID`.
            let (afterStatus, _) = try await Self.get(server, "/v1/answers/\(id)/events?after=\(last + 1)")
            #expect(afterStatus == 416)
        }
    }

    @Test("a running answer: past what it has sent is a 416 too, at once, not a stream that waits")
    func runningAnswer() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let transport = SSETransport(baseURL: server.baseURL)
            engine.push(.token("one"), .token("two"))
            let (id, start) = await openAndReceive(transport, Self.question, stopAfter: 2)
            let answerID = try #require(id)
            #expect(start.sequences == [1, 2])
            for transport in [transport, WebSocketTransport(baseURL: server.baseURL)] as [any ResearchTransport] {
                let (_, past) = await openAndReceive(
                    transport, Self.question, resume: ResumeCursor(answerID: answerID, lastSequence: 7))
                Self.expectOutOfRange(past.clientError, events: 2)
            }
            // The answer goes on for readers with a real cursor.
            let resumed = try await transport.open(
                Self.question, resume: ResumeCursor(answerID: answerID, lastSequence: 2))
            engine.push(.token("three"), .complete(Completion()))
            engine.finish()
            let rest = await receive(resumed)
            #expect(rest.error == nil)
            #expect(rest.text == "three")
            #expect(rest.endsWithComplete)
        }
    }

    @Test("a cursor of 2^53 or more is past the end, 416, over the WebSocket as over SSE (it was 400 there)")
    func hugeCursorIsOutOfRangeOnEveryTransport() async throws {
        try await withServer(engine: instantEngine) { server in
            let (answerID, full) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            #expect(full.endsWithComplete)
            let id = try #require(answerID)
            for cursor in [1 << 53, (1 << 53) + 2, Int.max] {
                for transport in [SSETransport(baseURL: server.baseURL), WebSocketTransport(baseURL: server.baseURL)]
                    as [any ResearchTransport]
                {
                    let (_, past) = await openAndReceive(
                        transport, Self.question, resume: ResumeCursor(answerID: id, lastSequence: cursor))
                    Self.expectOutOfRange(past.clientError, events: try #require(full.sequences.last))
                }
            }
        }
    }

    @Test("AnswerStream fails at once, typed, when the server refuses its resume cursor, keeping its text")
    func answerStreamSurfacesTheRefusal() async throws {
        let script = FaultScript.answer(text: "Partial text, then a server that has fewer events than this client.")
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        let frames = script.frames(after: 0)
        server.enqueue(.closeAfter(bytes: frames.frameEnds[4]), .status(416))
        var configuration = ReliabilityConfiguration()
        configuration.backoffBase = .milliseconds(1)
        configuration.backoffMax = .milliseconds(2)
        let updates = await collectUpdates(
            AnswerStream(
                request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
                configuration: configuration))
        let failure = try #require(updates.last?.failure)
        #expect(failure.code == .resumeRefused)
        #expect(failure.status == 416)
        #expect(failure.partialText == script.text.prefix(8), "the two tokens before the drop, kept")
        #expect(server.requests.count == 2, "no retry after the refusal")
        #expect(server.requests.last?.lastEventID == 5)
    }
}
