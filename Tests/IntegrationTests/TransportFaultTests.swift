import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

@Suite("Faults injected over loopback reach the SSE transport as the right error or bytes")
struct TransportFaultTests {
    /// Multi-byte characters everywhere, so that cuts fall inside them.
    static let script = FaultScript.answer(text: "Grüße aus Köln 🎉, naïve café — 日本語のテキスト 🚀 done.", tokenCharacters: 3)
    static let question = AnswerRequest(query: "faults")

    static func withFaultServer(_ body: (FaultServer, SSETransport) async throws -> Void) async throws {
        let server = try await FaultServer.start(script: script)
        try await withReleasing(server, release: { await $0.shutdown() }) { server in
            try await body(server, SSETransport(baseURL: server.baseURL))
        }
    }

    /// Byte offsets of the body to cut at: inside the first frame, inside each of several multi-byte
    /// characters (1 byte into them), and exactly at a frame boundary.
    static var cutPoints: [Int] {
        let bytes = script.bytes(after: 0)
        let (_, ends) = script.frames(after: 0)
        var points = [5, ends[3]]
        for character in ["ü", "🎉", "日", "🚀"] {
            let encoded = Array(character.utf8)
            if let start = bytes.firstRange(of: encoded)?.lowerBound { points.append(start + 1) }
        }
        return points
    }

    @Test("a connection cut at any byte, even inside a UTF-8 character, is a retryable transport error; resuming loses and doubles nothing", arguments: cutPoints)
    func cutAndResume(at offset: Int) async throws {
        try await Self.withFaultServer { server, transport in
            server.enqueue(.closeAfter(bytes: offset))
            let (id, first) = await openAndReceive(transport, Self.question)
            let error = try #require(first.clientError)
            #expect(error.code == .transport)
            #expect(error.retryable)
            // Exactly the frames wholly sent before the cut arrived: none lost, none broken.
            let (_, ends) = Self.script.frames(after: 0)
            let whole = ends.filter { $0 <= offset }.count
            #expect(first.events == Array(Self.script.events.prefix(whole)))
            let last = first.sequences.last ?? 0
            let answerID = try #require(id)
            let (_, rest) = await openAndReceive(transport, Self.question, resume: ResumeCursor(answerID: answerID, lastSequence: last))
            #expect(rest.error == nil)
            #expect(first.text + rest.text == Self.script.text)
            #expect(first.sequences + rest.sequences == Array(1...Self.script.lastSequence))
            #expect(server.requests.map(\.lastEventID) == [0, last])
        }
    }

    @Test(
        "an error status reaches the client with its status, retryability and Retry-After",
        arguments: [
            (500, [:], true, nil), (503, ["retry-after": "3"], true, 3_000), (429, ["retry-after": "2"], true, 2_000),
            (429, ["retry-after-ms": "250"], true, 250), (404, [:], false, nil), (410, [:], false, nil),
        ] as [(Int, [String: String], Bool, Int?)])
    func status(status: Int, headers: [String: String], retryable: Bool, retryAfterMs: Int?) async throws {
        try await Self.withFaultServer { server, transport in
            server.enqueue(.status(status, headers: headers))
            let (_, received) = await openAndReceive(transport, Self.question)
            let error = try #require(received.clientError)
            #expect(error.code == .httpStatus)
            #expect(error.status == status)
            #expect(error.retryable == retryable)
            #expect(error.retryAfter == retryAfterMs.map { .milliseconds($0) })
            #expect(error.message.contains("on purpose"))
        }
    }

    @Test("resuming an answer the fault server does not know is a 404")
    func unknownResume() async throws {
        try await Self.withFaultServer { _, transport in
            let (_, received) = await openAndReceive(
                transport, Self.question, resume: ResumeCursor(answerID: "other", lastSequence: 1))
            #expect(received.clientError?.status == 404)
        }
    }

    @Test("one byte per write gives exactly the same events")
    func bytePerWrite() async throws {
        try await Self.withFaultServer { server, transport in
            server.enqueue(.bytePerWrite)
            let (_, received) = await openAndReceive(transport, Self.question)
            #expect(received.error == nil)
            #expect(received.events == Self.script.events)
            #expect(received.text == Self.script.text)
        }
    }

    @Test("garbage that is not an SSE field is skipped; garbage JSON is a malformed event")
    func garbage() async throws {
        try await Self.withFaultServer { server, transport in
            let (_, ends) = Self.script.frames(after: 0)
            server.enqueue(
                .garbage(atByte: ends[2], bytes: [0x00, 0xFF, 0xFE, 0x21, 0x0A, 0x0A]),
                .garbage(atByte: ends[4], bytes: Array("event: token\ndata: {\"type\":\"token\",\"cont\n\n".utf8)))
            let (_, skipped) = await openAndReceive(transport, Self.question)
            #expect(skipped.error == nil)
            #expect(skipped.events == Self.script.events)
            let (_, broken) = await openAndReceive(transport, Self.question)
            #expect(broken.clientError?.code == .malformedEvent)
            #expect(broken.events == Array(Self.script.events.prefix(5)))
        }
    }

    /// Opens a connection that stalls after the sixth event (and `bytesIntoTheSeventh` bytes of the
    /// next) until `gate` is released, sending keepalives meanwhile if asked.
    static func openStalling(
        _ server: FaultServer, _ transport: SSETransport, gate: FaultGate, bytesIntoTheSeventh: Int = 0,
        keepalives: Bool = false
    ) async throws -> TransportConnection {
        let (_, ends) = script.frames(after: 0)
        server.enqueue(.stall(afterBytes: ends[5] + bytesIntoTheSeventh, gate: gate, keepalives: keepalives))
        return try await transport.open(question, resume: nil)
    }

    @Test("while one connection stalls (with or without keepalives), a resume on another gets the rest", arguments: [false, true])
    func stall(keepalives: Bool) async throws {
        try await Self.withFaultServer { server, transport in
            let gate = FaultGate()
            let connection = try await Self.openStalling(server, transport, gate: gate, keepalives: keepalives)
            let beforeStall = await receive(connection) { $0.events.count == 6 }
            #expect(beforeStall.events == Array(Self.script.events.prefix(6)))
            await gate.reached.wait()
            #expect(!gate.released.isOpen)
            // A new connection resumes the same answer from the cursor while the first one stalls.
            let resumed = try await transport.open(Self.question, resume: ResumeCursor(answerID: server.answerID, lastSequence: 6))
            let rest = await receive(resumed)
            #expect(beforeStall.text + rest.text == Self.script.text)
            gate.release()
        }
    }

    @Test("a stall with keepalives sends only keepalives until released")
    func stallWithKeepalives() async throws {
        try await Self.withFaultServer { server, transport in
            let gate = FaultGate()
            let connection = try await Self.openStalling(server, transport, gate: gate, keepalives: true)
            let stalled = await receive(connection) { $0.keepalives == 3 }
            #expect(stalled.events == Array(Self.script.events.prefix(6)), "no event arrives during the stall")
            gate.release()
        }
    }

    @Test("a released stall delivers the rest of the stream on the same connection")
    func stallReleased() async throws {
        try await Self.withFaultServer { server, transport in
            let gate = FaultGate()
            let connection = try await Self.openStalling(server, transport, gate: gate, bytesIntoTheSeventh: 3)
            let reader = Task { await receive(connection) }
            await gate.reached.wait()
            gate.release()
            let received = await reader.value
            #expect(received.error == nil)
            #expect(received.events == Self.script.events)
            #expect(received.keepalives == 0)
        }
    }

    @Test("the connect timeout bounds the wait for the head, not a body that streams for longer")
    func bodyOutlivesTheConnectTimeout() async throws {
        try await Self.withFaultServer { server, _ in
            // AsyncHTTPClient's request deadline used to be this timeout, and it failed the request
            // mid-body: every SSE stream broke 30 s after it opened, a model's answer after 60 s.
            // 1 s, not less: on a loaded machine (tests in parallel) the head itself can take a few
            // hundred milliseconds.
            let transport = SSETransport(baseURL: server.baseURL, connectTimeout: .seconds(1))
            let gate = FaultGate()
            let connection = try await Self.openStalling(server, transport, gate: gate, keepalives: true)
            // Keepalives every 10 ms on the server's clock, never faster: 150 of them take at least
            // 1.5 s, past the 1 s; then the rest of the answer comes on the same connection.
            let received = await receive(connection) { received in
                if received.keepalives == 150 { gate.release() }
                return false
            }
            #expect(received.error == nil, "\(String(describing: received.error))")
            #expect(received.keepalives >= 150)
            #expect(received.events == Self.script.events)
        }
    }
}
