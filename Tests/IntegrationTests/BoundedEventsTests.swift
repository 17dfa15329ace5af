import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceResearch
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
import Testing

/// Big answers do not break readers (issue 33, finding 6): a model that writes 64 KB deltas reaches
/// readers as `token` events of at most 4 KB, and a reader that pauses while a 5 MB answer is written
/// resumes and gets all of it, where the 4 MiB replay log used to answer `410 events_evicted`.
@Suite("Bounded events, through the server")
struct BoundedEventsTests {
    /// 80 deltas of 64 KB (5 MiB in all), with emoji and combining marks that straddle 4 KB boundaries.
    static let deltas: [String] = (0..<80).map { index in
        let unit = "word \(index % 10) 🎉👩‍👩‍👧 e\u{301} "
        let repeats = (64 << 10) / unit.utf8.count
        return String(repeating: unit, count: repeats)
    }

    @Test("a reader that pauses while a model writes 64 KB deltas resumes and gets the whole answer in small tokens")
    func pausedReaderResumesThroughABigAnswer() async throws {
        let text = Self.deltas.joined() + "Done."
        try await ModelResearchServerTests.withResearch(
            model: ModelResearchServerTests.model { _ in .text(Self.deltas + ["Done."]) }
        ) { server, _ in
            let transport = SSETransport(baseURL: server.baseURL)
            // Read the first events, then stop reading: the reader pauses.
            let (answerID, first) = await openAndReceive(transport, ModelResearchServerTests.question, stopAfter: 2)
            let id = try #require(answerID)
            let cursor = try #require(first.sequences.last)
            // The answer is written to its end while this reader pauses: another reader, reading
            // live, sees its `complete`.
            let (_, live) = await openAndReceive(
                transport, ModelResearchServerTests.question, resume: ResumeCursor(answerID: id, lastSequence: 0))
            #expect(live.endsWithComplete)

            let (_, rest) = await openAndReceive(
                transport, ModelResearchServerTests.question, resume: ResumeCursor(answerID: id, lastSequence: cursor))
            #expect(rest.error == nil, "\(String(describing: rest.error))")
            #expect(rest.endsWithComplete)
            #expect(first.text + rest.text == text)
            let tokens = rest.events.compactMap { event -> String? in
                if case .token(let piece) = event.kind { piece } else { nil }
            }
            #expect(tokens.count >= Self.deltas.count * 16)
            #expect(tokens.allSatisfy { $0.utf8.count <= 4096 })
        }
    }

    /// An event the client cannot read: `content` must be a string.
    static let malformed = Array("event: token\nid: 6\ndata: {\"type\":\"token\",\"sequence\":6,\"content\":7}\n\n".utf8)

    /// An `AnswerStream` over SSE against `server`, with short retry waits, to its end.
    static func stream(_ server: FaultServer) async -> [AnswerUpdate] {
        var configuration = ReliabilityConfiguration()
        configuration.backoffBase = .milliseconds(1)
        configuration.backoffMax = .milliseconds(2)
        return await collectUpdates(
            AnswerStream(
                request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
                configuration: configuration))
    }

    @Test("one malformed event mid-stream: the client resumes from the last good event and the answer completes whole")
    func aMalformedEventIsResumedPast() async throws {
        let script = FaultScript.answer(text: "Partial text, then one damaged event, then the rest of the answer.")
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(.garbage(atByte: script.frames(after: 0).frameEnds[4], bytes: Self.malformed))
        let updates = await Self.stream(server)
        let completion = try #require(updates.last?.completion, "\(String(describing: updates.last))")
        #expect(completion.text == script.text)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.lastEventID == 5)
    }

    @Test("the same event malformed again after the resume ends the answer with an error, its text kept")
    func aRepeatedMalformedEventEndsTheAnswer() async throws {
        let script = FaultScript.answer(text: "Partial text, then an event that is damaged every time it is sent.")
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(
            .garbage(atByte: script.frames(after: 0).frameEnds[4], bytes: Self.malformed),
            .garbage(atByte: 0, bytes: Self.malformed))
        let updates = await Self.stream(server)
        let failure = try #require(updates.last?.failure, "\(String(describing: updates.last))")
        #expect(failure.partialText == script.text.prefix(8), "the two tokens before the damaged event")
        #expect(failure.message.contains("malformed"))
        #expect(server.requests.count == 2, "one resume, no more")
    }
}
