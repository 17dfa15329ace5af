import CadenceCore
import Testing

/// The worked examples of CadenceCore's documentation catalog, run as written, so the catalog stays
/// true (`Sources/CadenceCore/CadenceCore.docc`).
@Suite struct DocumentationExampleTests {
    /// "Decoding a research stream".
    @Test func decodingAResearchStream() throws {
        let body = Array(
            """
            event: sources_ready
            id: 1
            data: {"type":"sources_ready","sequence":1,"sources":[{"id":"1","title":"Resuming","url":"cadence://corpus/resume.md"}]}

            : keepalive

            event: token
            id: 2
            data: {"type":"token","sequence":2,"content":"Caf\u{E9} [1]"}


            """.utf8)
        let cuts = [17, body.firstIndex(of: 0xC3)! + 1]
        let chunks = [body[..<cuts[0]], body[cuts[0]..<cuts[1]], body[cuts[1]...]]

        var decoder = SSEDecoder()
        var events: [ResearchEvent] = []
        var keepalives = 0
        for chunk in chunks {
            for item in try decoder.feed(chunk) {
                if let event = try ResearchEventDecoder.decode(item) { events.append(event) } else { keepalives += 1 }
            }
        }
        for item in try decoder.finish() {
            if let event = try ResearchEventDecoder.decode(item) { events.append(event) }
        }
        #expect(events.map(\.kind) == [
            .sourcesReady([Source(id: "1", title: "Resuming", url: "cadence://corpus/resume.md")]), .token("Café [1]"),
        ])
        #expect(events[1].sequence == 2)
        #expect(keepalives == 1)
        #expect(decoder.lastEventID == "2")

        var model = ModelStreamDecoder.autoDetecting()
        let normalized =
            try model.feed(Array(#"{"message":{"content":"Hi"},"done":true}"#.utf8) + [0x0A]) + model.finish()
        #expect(normalized == [.text("Hi", choice: 0), .finish(.stop, choice: 0)])
    }

    /// "Driving the answer machine".
    @Test func drivingTheAnswerMachine() throws {
        var machine = AnswerStreamMachine(configuration: ReliabilityConfiguration(), random: SplitMix64(seed: 7))
        #expect(machine.start(now: .zero) == [.connect(resume: nil)])
        #expect(machine.connected(answerID: "a1", now: .milliseconds(30)) == [])
        #expect(
            machine.received(ResearchEvent(sequence: 1, kind: .token("Resume ")), now: .milliseconds(200))
                == [.emit(.textAppended("Resume "))])

        let afterDrop = machine.connectionFailed(.transport("connection reset", beforeFirstByte: false), now: .seconds(1))
        guard afterDrop.count == 1, case .emit(.reconnecting(attempt: 2, after: _)) = afterDrop[0] else {
            Issue.record("after the drop: \(afterDrop)")
            return
        }
        let retryAt = try #require(machine.nextDeadline)
        #expect(machine.deadlinePassed(now: retryAt) == [.connect(resume: ResumeCursor(answerID: "a1", lastSequence: 1))])
        #expect(machine.connected(answerID: "a1", now: retryAt + .milliseconds(30)) == [.emit(.reconnected)])

        #expect(machine.received(ResearchEvent(sequence: 1, kind: .token("Resume ")), now: retryAt + .milliseconds(40)) == [])
        #expect(
            machine.received(ResearchEvent(sequence: 2, kind: .token("works.")), now: retryAt + .milliseconds(50))
                == [.emit(.textAppended("works."))])
        #expect(
            machine.received(ResearchEvent(sequence: 3, kind: .complete(Completion())), now: retryAt + .milliseconds(60))
                == [])
        let ending = machine.connectionClosed(now: retryAt + .milliseconds(70))
        guard case .emit(.completed(let completion))? = ending.last else {
            Issue.record("not completed: \(ending)")
            return
        }
        #expect(completion.reason == .completed && completion.text == "Resume works.")
        #expect(machine.isFinished)
        #expect(machine.cancel(now: retryAt + .seconds(1)) == [], "later calls do nothing")
    }
}
