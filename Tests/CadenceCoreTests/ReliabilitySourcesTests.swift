import CadenceCore
import Testing

@Suite("Reliability: sources")
struct ReliabilitySourcesTests {
    @Test("sources_ready and complete are merged by URL, emitted only when the list changes")
    func mergedByURL() {
        let a = citedSource("1", "https://a.example/")
        let b = citedSource("2", "https://b.example/")
        let c = citedSource("3", "https://c.example/")
        var machine = streamingMachine()
        let ready = ResearchEvent(sequence: 1, kind: .sourcesReady([a, b]))
        #expect(
            machine.received(ready, now: .seconds(1)) == [
                .emit(.sourcesMerged([a, b])), .emit(.stageChanged(ready.kind)),
            ])

        let again = ResearchEvent(sequence: 2, kind: .sourcesReady([b, Source(id: "9", title: "B again", url: b.url)]))
        #expect(machine.received(again, now: .seconds(2)) == [.emit(.stageChanged(again.kind))])

        #expect(machine.received(tokenEvent("text [1]", 3), now: .seconds(3)) == [.emit(.textAppended("text [1]"))])
        #expect(
            machine.received(completeEvent(4, sources: [b, c]), now: .seconds(4)) == [.emit(.sourcesMerged([a, b, c]))])
        #expect(machine.connectionClosed(now: .seconds(5)).updates.first?.completion?.sources == [a, b, c])
    }

    @Test("a complete with only known sources emits nothing")
    func completeWithKnownSources() {
        let a = citedSource("1", "https://a.example/")
        var machine = streamingMachine()
        _ = machine.received(ResearchEvent(sequence: 1, kind: .sourcesReady([a])), now: .seconds(1))
        #expect(machine.received(completeEvent(2, sources: [a]), now: .seconds(2)) == [])
    }

    @Test("stage events become stageChanged; unknown events and flush-tokens emit nothing")
    func stages() {
        var machine = streamingMachine()
        let planning = ResearchEvent(sequence: 1, kind: .planningComplete(message: nil, queries: ["q"]))
        #expect(machine.received(planning, now: .seconds(1)) == [.emit(.stageChanged(planning.kind))])
        let unknown = ResearchEvent(sequence: 2, kind: .unknown(type: "future", json: ["type": "future"]))
        #expect(machine.received(unknown, now: .seconds(1)) == [])
        #expect(machine.received(ResearchEvent(kind: .flushTokens), now: .seconds(1)) == [])
        #expect(machine.resumeCursor?.lastSequence == 2)
    }
}
