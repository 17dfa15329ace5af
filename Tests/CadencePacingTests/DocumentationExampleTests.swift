import CadencePacing
import Testing

/// The worked example of CadencePacing's documentation catalog ("Pacing an answer"), run as
/// written, and the properties the article states, so the catalog stays true.
@Suite struct DocumentationExampleTests {
    @Test func pacingAnAnswer() {
        var pacer = DisplayPacer()
        let chunks: [(Duration, String)] = [
            (.milliseconds(0), "Server-sent events keep one HTTP resp"),
            (.milliseconds(400), "onse open and stream text as it is written."),
        ]
        var shown: [String] = []
        var next = 0
        var finishedAt: Duration?
        for frame in 1...120 {
            let now = Duration.milliseconds(frame * 1000 / 60)
            while next < chunks.count, chunks[next].0 <= now {
                pacer.append(chunks[next].1, at: chunks[next].0)
                next += 1
            }
            if next == chunks.count, finishedAt == nil {
                pacer.finish()
                finishedAt = now
            }
            if pacer.advance(to: now).changed {
                shown.append(String(pacer.visibleText))
            }
        }
        let whole = chunks.map(\.1).joined()
        #expect(shown.count > 3, "revealed over several frames: \(shown)")
        for (earlier, later) in zip(shown, shown.dropFirst()) {
            #expect(later.hasPrefix(earlier) && later != earlier, "each entry extends the one before")
        }
        for entry in shown.dropLast() {
            #expect(entry.hasSuffix(" "), "whole words only: \(entry)")
            #expect(!entry.hasSuffix("resp"))
        }
        #expect(shown.last == whole)
        #expect(pacer.isComplete)
    }
}
