import CadenceBenchmarkKit
import CadenceMarkdown
import CadencePacing
import CadenceUI

extension MemoryBenchmark {
    /// Where a view model's bytes go, measured apart without a network (`memory.parts`): 100 of
    /// each part holding the same answer, each step's `VmRSS` read after `malloc_trim(0)` so that
    /// it counts live memory. The parts: the answer's text as one `String`; a `DisplayPacer` given
    /// the answer in its tokens, nothing shown yet (its text and the boundaries of every unit still
    /// to show); a `MarkdownDocument` of the answer; an `AnswerViewModel` given the tokens as
    /// updates; and what `revealAll()` adds to it.
    @MainActor
    static func measureParts(plan: TimestampEngine.Plan) -> Figures {
        let copies = 100
        let tokens = (0..<plan.tokens).map { plan.token($0, at: monotonicNanoseconds()) }
        var resident = trimmedResident()
        var figures = Figures()
        func measured(_ name: String, _ note: String) {
            let now = trimmedResident()
            figures.add(name, (now - resident) / copies, note)
            resident = now
        }
        let texts = (0..<copies).map { _ in tokens.reduce(into: "") { $0 += $1 } }
        measured("part_text_bytes", "the answer as one String")
        let pacers = (0..<copies).map { _ in
            var pacer = DisplayPacer()
            for (index, token) in tokens.enumerated() { pacer.append(token, at: .milliseconds(index)) }
            return pacer
        }
        measured("part_pacer_bytes", "a DisplayPacer given the answer, nothing shown yet")
        let documents = texts.map { text in
            var document = MarkdownDocument()
            document.append(text)
            return document
        }
        measured("part_markdown_bytes", "a MarkdownDocument of the answer")
        let answers = (0..<copies).map { _ in
            let answer = AnswerViewModel(id: "answer", query: "parts")
            for (index, token) in tokens.enumerated() { answer.apply(.textAppended(token), at: .milliseconds(index)) }
            return answer
        }
        measured("part_view_model_received_bytes", "an AnswerViewModel given the answer's updates")
        for answer in answers { answer.revealAll() }
        measured("part_reveal_all_bytes", "what revealAll() adds to it: the visible text and its markdown")
        withExtendedLifetime((texts, pacers, documents, answers)) {}
        return figures
    }

    private static func trimmedResident() -> Int {
        ProcessMemory.releaseFreeHeapPages()
        return ProcessMemory.read().resident
    }
}
