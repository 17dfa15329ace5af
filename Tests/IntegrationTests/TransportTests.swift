import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Testing

/// What holds for every transport (SSE, WebSocket, polling) against the reference server. What is
/// particular to one transport is in its own suite.
@Suite("Every transport against the reference server")
struct TransportTests {
    /// The three transports, each opened against the server at a base URL.
    enum Kind: String, CaseIterable, Sendable {
        case sse, webSocket, polling

        func transport(_ baseURL: String) -> any ResearchTransport {
            switch self {
            case .sse: SSETransport(baseURL: baseURL)
            case .webSocket: WebSocketTransport(baseURL: baseURL)
            case .polling: PollingTransport(baseURL: baseURL, conversationID: "c1", clock: ManualClock.stepping(sleepLimit: .max))
            }
        }
    }

    @Test(
        "a new answer has an id and events numbered from 1 ending in complete: the same events as over SSE",
        arguments: Kind.allCases)
    func newAnswer(over kind: Kind) async throws {
        try await withServer(engine: instantEngine) { server in
            let (answerID, received) = await openAndReceive(kind.transport(server.baseURL), transportQuestion)
            let (_, viaSSE) = await openAndReceive(SSETransport(baseURL: server.baseURL), transportQuestion)
            #expect(received.error == nil, "\(String(describing: received.error))")
            #expect(answerID?.isEmpty == false)
            #expect(received.sequences == numbered(received.sequences.count))
            #expect(received.endsWithComplete)
            #expect(!received.text.isEmpty)
            #expect(received.comparableEvents == viaSSE.comparableEvents)
            if kind == .sse {
                #expect(received.events.contains { $0.kind == .flushTokens })
            }
        }
    }

    @Test(
        "a resume replays strictly after N, whatever N is, and the two parts make the answer",
        arguments: Kind.allCases, [0, 1, 5, 7, 12, 20, 30])
    func resume(over kind: Kind, after: Int) async throws {
        try await withServer(engine: instantEngine) { server in
            let transport = kind.transport(server.baseURL)
            let (id, full) = await openAndReceive(transport, transportQuestion)
            let answerID = try #require(id)
            let last = try #require(full.sequences.last)
            let (resumedID, resumed) = await openAndReceive(
                transport, transportQuestion, resume: ResumeCursor(answerID: answerID, lastSequence: after))
            #expect(resumedID == answerID)
            #expect(resumed.error == nil)
            #expect(resumed.sequences == Array((after + 1)...last))
            let before = full.events.filter { ($0.sequence ?? Int.max) <= after }
            #expect(Received(events: before).text + resumed.text == full.text)
        }
    }

    @Test("resuming an unknown answer fails with a 404 that names it, not to be retried", arguments: Kind.allCases)
    func unknownAnswer(over kind: Kind) async throws {
        try await withServer(engine: instantEngine) { server in
            let transport = kind.transport(server.baseURL)
            _ = await openAndReceive(transport, transportQuestion)  // polling: the conversation exists, the answer not
            let (_, received) = await openAndReceive(
                transport, transportQuestion, resume: ResumeCursor(answerID: "ans_missing", lastSequence: 3))
            let error = try #require(received.clientError)
            #expect(error.code == .httpStatus)
            #expect(error.status == 404)
            #expect(!error.retryable)
            #expect(error.message.contains("ans_missing"))
        }
    }
}
