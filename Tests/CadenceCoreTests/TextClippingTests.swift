@testable import CadenceCore
import Testing

/// The one way text is cut for a message, a title or an excerpt.
struct TextClippingTests {
    @Test(arguments: [
        ("short", 10, "short"),
        ("exactly10!", 10, "exactly10!"),
        ("eleven char", 10, "eleven ch…"),
        ("ééééééééééé", 5, "éééé…"),
        ("anything", 1, "…"),
    ])
    func clippedCountsTheEllipsis(text: String, limit: Int, expected: String) {
        let clipped = text.clipped(to: limit)
        #expect(clipped == expected)
        #expect(clipped.count <= limit)
    }

    @Test func clippedAtWordEndsOnAWholeWordWithoutTheLeadInPunctuation() {
        #expect("Exponential backoff, with jitter".clippedAtWord(to: 24) == "Exponential backoff…")
        #expect("What is SSE?".clippedAtWord(to: 60) == "What is SSE?")
        // A space only in the first half: cutting there would lose most of what fits.
        #expect("a verylongwordthatgoesonandon".clippedAtWord(to: 12) == "a verylongw…")
    }

    @Test func oneLineJoinsWhiteSpaceRunsThenClips() {
        #expect("<html>\n  <body>Bad\tgateway</body>\n</html>".oneLine(limit: 100) == "<html> <body>Bad gateway</body> </html>")
        #expect("a\n\nb c d e".oneLine(limit: 5) == "a b …")
    }
}
