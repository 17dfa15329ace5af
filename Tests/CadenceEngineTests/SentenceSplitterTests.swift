import Testing

@testable import CadenceEngine

@Suite struct SentenceSplitterTests {
    @Test func splitsAtSentenceEnds() {
        #expect(
            SentenceSplitter.sentences(in: "Back off. Then retry, e.g. after 2 s. Done! Really?") == [
                "Back off.", "Then retry, e.g. after 2 s.", "Done!", "Really?",
            ])
    }

    @Test func doesNotSplitInsideCodeSpansOrBeforeLowercase() {
        #expect(
            SentenceSplitter.sentences(in: "Call `a. B` now. Version 1.2 is out. the end.") == [
                "Call `a. B` now.", "Version 1.2 is out. the end.",
            ])
    }

    @Test func collapsesWhitespace() {
        #expect(SentenceSplitter.sentences(in: "  One\n two.   Three  ") == ["One two.", "Three"])
    }

    @Test(arguments: [
        "The client resumes [1]. It sends `Last-Event-ID` [2].",
        "Lead.\n\nParagraph one [1].\n\nOther sources add:\n- Item [2].\n- Item [3].",
        "  leading and trailing spaces  ",
        "one",
        "",
    ])
    func wordTokensJoinToTheTextAndHoldOneWordEach(text: String) {
        let tokens = SentenceSplitter.wordTokens(in: text)
        #expect(tokens.joined() == text)
        for token in tokens.dropLast() {
            #expect(token.split(whereSeparator: \.isWhitespace).count == 1, "token \(token.debugDescription)")
            #expect(!token.last!.isWhitespace)
        }
    }

    @Test func citationsStayWholeTokens() {
        #expect(SentenceSplitter.wordTokens(in: "It resumes [1].") == ["It", " resumes", " [1]."])
    }
}
