import CadenceCore
import Testing

@Suite("AnswerUpdate's size in a stream's buffers")
struct AnswerUpdateLayoutTests {
    /// An `AsyncStream` keeps the largest buffer it ever needed for as long as it lives, and each
    /// slot is an update's stride: an answer that arrives faster than its reader takes it leaves
    /// room for a thousand updates or more in `AnswerStream`'s stream until the answer ends. The
    /// large and rare payloads (a stage, a completion, a failure: 40 to 104 bytes) are boxed, so a
    /// slot costs what a token's text or a reconnection needs.
    @Test("an update takes at most 32 bytes, however large its payload")
    func updateIsSmall() {
        #expect(MemoryLayout<AnswerUpdate>.stride <= 32)
        #expect(MemoryLayout<AnswerFailure>.stride > 32)
        #expect(MemoryLayout<AnswerCompletion>.stride > 32)
        #expect(MemoryLayout<ResearchEvent.Kind>.stride > 32)
    }

    @Test("boxed payloads read back whole")
    func boxedPayloadsReadBack() {
        let stage = AnswerUpdate.stageChanged(.roundComplete(round: 2, sources: 7, status: "ok"))
        guard case .stageChanged(.roundComplete(let round, let sources, let status)) = stage else {
            Issue.record("not a stage: \(stage)")
            return
        }
        #expect(round == 2 && sources == 7 && status == "ok")
        #expect(stage == .stageChanged(.roundComplete(round: 2, sources: 7, status: "ok")))
        #expect(stage != .stageChanged(.roundComplete(round: 3, sources: 7, status: "ok")))
    }
}
