import CadenceCore
import Testing

@testable import CadenceResearch

/// The streaming citation processor: every case is run at every chunk size from 1 to the text's
/// length, and must send the same text and settle the same checks whatever the split.
@Suite struct CitationProcessorTests {
    static let sources = [
        "Resume. The client resumes an interrupted stream from the last event id it saw.",
        "Retry. Retries wait with exponential backoff and jitter, honouring the Retry-After header.",
        "Pacing. A display buffer releases whole words on a steady clock.",
    ]

    /// Runs `text` through a fresh processor in chunks of `size` scalars.
    static func run(_ text: String, size: Int, sources: [String] = sources) -> (String, CitationProcessor) {
        var processor = CitationProcessor(sources: sources)
        var sent = ""
        let scalars = Array(text.unicodeScalars)
        var start = 0
        while start < scalars.count {
            let end = min(start + size, scalars.count)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<end])
            sent += processor.feed(String(view))
            start = end
        }
        sent += processor.finish()
        return (sent, processor)
    }

    /// The text sent for `text`, the same at every chunk size (checked), with the checks.
    static func sent(_ text: String, sources: [String] = sources) -> (String, CitationProcessor) {
        let whole = run(text, size: max(text.unicodeScalars.count, 1), sources: sources)
        for size in 1...max(text.unicodeScalars.count, 1) {
            let split = run(text, size: size, sources: sources)
            #expect(split.0 == whole.0, "chunk size \(size)")
            #expect(split.1.checks == whole.1.checks, "chunk size \(size)")
            #expect(split.1.dropped == whole.1.dropped, "chunk size \(size)")
        }
        return whole
    }

    @Test(arguments: [
        ("Cadence resumes from the last event id [1].", "Cadence resumes from the last event id [1]."),
        ("Both [1][2] apply.", "Both [1][2] apply."),
        ("Both [1, 2] apply and [2,3] too.", "Both [1][2] apply and [2][3] too."),
        ("A fact [99].", "A fact."),
        ("A fact [99] and more.", "A fact and more."),
        ("A fact [2][99][3].", "A fact [2][3]."),
        ("A fact [1, 99].", "A fact [1]."),
        ("[99] Leading.", "Leading."),
        ("Zero [0] is no source.", "Zero is no source."),
        ("Use `xs[1]` and `ys[99]`.", "Use `xs[1]` and `ys[99]`."),
        ("``a ` [99] b`` ok [1].", "``a ` [99] b`` ok [1]."),
        ("```swift\nlet x = xs[99]\n```\nAfter [9].", "```swift\nlet x = xs[99]\n```\nAfter."),
        ("~~~\n[99]\n~~~\n", "~~~\n[99]\n~~~\n"),
        ("A link [1](https://example.com) and \\[99] stay.", "A link [1](https://example.com) and \\[99] stay."),
        ("[7]: https://example.com\n", "[7]: https://example.com\n"),
        ("Not citations: [a], [], [1 2], [12345], [1,], [ 1].", "Not citations: [a], [], [1 2], [12345], [1,], [ 1]."),
        ("Unclosed [1", "Unclosed [1"),
        ("Ends with a citation [3]", "Ends with a citation [3]"),
        ("Tail spaces stay  ", "Tail spaces stay  "),
        ("Dropped at the end [42]", "Dropped at the end"),
        ("Café [1] naïve 日本語 [2] 👩‍👩‍👧.", "Café [1] naïve 日本語 [2] 👩‍👩‍👧."),
    ])
    func sendsWhatItShould(input: String, expected: String) {
        #expect(Self.sent(input).0 == expected)
    }

    @Test func holdsASplitCitationUntilItIsComplete() {
        var processor = CitationProcessor(sources: Self.sources)
        #expect(processor.feed("It resumes [") == "It resumes")
        #expect(processor.feed("1") == "")
        #expect(processor.feed("]") == "")
        #expect(processor.feed(" from") == " [1] from")
        #expect(processor.finish() == "")
    }

    @Test func sendsPlainTextWithoutDelay() {
        var processor = CitationProcessor(sources: Self.sources)
        #expect(processor.feed("Hello, world.") == "Hello, world.")
        #expect(processor.feed(" Next") == " Next")
    }

    @Test func recordsDroppedNumbers() {
        let (_, processor) = Self.sent("One [4], two [1, 7], three [2].")
        #expect(processor.dropped == [4, 7])
        #expect(processor.checks.map(\.source) == [1, 2])
        #expect(processor.checks.map(\.ordinal) == [1, 2])
    }

    @Test func checksEachCitationAgainstItsSource() {
        let (_, processor) = Self.sent(
            "The client resumes an interrupted stream from the last event id [1]. "
                + "Bananas grow on tall tropical plants [2].")
        #expect(processor.checks.count == 2)
        #expect(processor.checks[0].supported)
        #expect(processor.checks[0].sentence == "The client resumes an interrupted stream from the last event id")
        #expect(processor.checks[0].score == 1)
        #expect(!processor.checks[1].supported)
        #expect(processor.checks[1].score == 0)
        #expect(
            processor.checks[1].json
                == [
                    "ordinal": 2, "source": 2, "supported": false, "score": 0,
                    "sentence": "Bananas grow on tall tropical plants",
                ])
    }

    @Test func eachCitationBacksTheWordsBeforeIt() {
        let (_, processor) = Self.sent("Retries use exponential backoff [2] while pacing releases whole words [3].")
        #expect(processor.checks.map(\.sentence) == ["Retries use exponential backoff", "while pacing releases whole words"])
        #expect(processor.checks.map(\.supported) == [true, true])
    }

    @Test func aGroupSharesOneClaim() {
        let (_, processor) = Self.sent("Retries honour the Retry-After header [2][1].")
        #expect(processor.checks.map(\.sentence) == ["Retries honour the Retry-After header", "Retries honour the Retry-After header"])
        #expect(processor.checks.map(\.supported) == [true, false])
    }

    @Test func aCitationOpeningItsSentenceBacksTheSentenceBefore() {
        let (_, processor) = Self.sent("Pacing releases whole words on a clock. [3] Something else entirely.")
        #expect(processor.checks.first?.sentence == "Pacing releases whole words on a clock.")
        #expect(processor.checks.first?.supported == true)
    }

    @Test func tooFewWordsBeforeTheCitationMeansTheWholeSentence() {
        let (_, processor) = Self.sent("According to [2], retries wait with backoff and jitter.")
        #expect(processor.checks.first?.sentence == "According to, retries wait with backoff and jitter.")
        #expect(processor.checks.first?.supported == true)
    }

    @Test func withoutSourcesEveryCitationIsDropped() {
        let (sent, processor) = Self.sent("Text [1] here [2].", sources: [])
        #expect(sent == "Text here.")
        #expect(processor.checks.isEmpty)
        #expect(processor.dropped == [1, 2])
    }

    @Test func supportScoreIsTheShareOfContentWords() {
        #expect(CitationSupport.score(sentence: "streams resume", source: "a stream resumes") == 1)
        #expect(CitationSupport.score(sentence: "streams resume quickly", source: "a stream resumes") == 2.0 / 3)
        #expect(CitationSupport.score(sentence: "the and of", source: "anything") == 0)
    }

    @Test func workIsLinearInTheAnswer() {
        // One long sentence full of citations: each is settled once, and the sentence is capped.
        let sentence = String(repeating: "streams resume from the last event id [1] ", count: 2_000)
        let (sent, processor) = Self.run(sentence, size: 7)
        #expect(sent == sentence)
        #expect(processor.checks.count == 2_000)
        #expect(processor.checks.allSatisfy { $0.sentence.unicodeScalars.count <= 300 })
    }
}
