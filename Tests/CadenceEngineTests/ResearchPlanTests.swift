import CadenceCore
import Testing

@testable import CadenceEngine

@Suite struct ResearchPlanTests {
    static let history = [ChatTurn(role: "user", content: "How does Cadence resume an interrupted stream?")]

    @Test(arguments: [
        ("and how does it retry?", true),
        ("What about WebSockets?", true),
        ("Why?", true),
        ("How are they numbered?", true),
        ("What is BM25?", false),
        ("How does the decoder handle events that are too large?", false),
    ])
    func followUpsBorrowThePreviousQuestionsTerms(question: String, isFollowUp: Bool) {
        let plan = ResearchPlan(AnswerRequest(query: question, history: Self.history))
        #expect((plan.context != nil) == isFollowUp)
        #expect((plan.focus["resum"] == ResearchPlan.contextWeight) == isFollowUp)
        // The question's own terms always weigh fully.
        for stem in Tokenizer.stems(in: question) { #expect(plan.focus[stem] == 1) }
    }

    @Test func withoutHistoryNothingIsBorrowed() {
        let plan = ResearchPlan(AnswerRequest(query: "and how does it retry?"))
        #expect(plan.context == nil)
        #expect(plan.focus == ["retry": 1])
    }

    @Test(arguments: [
        ("How does SSE compare with WebSockets?", ["How does SSE", "WebSockets"]),
        ("What is SSE? How do WebSockets differ?", ["What is SSE", "How do WebSockets differ"]),
        ("What are retries and backoff", ["What are retries", "backoff"]),
        ("How does it work and why", ["How does it work and why"]),
    ])
    func multiPartQuestionsSplitIntoSearchableParts(question: String, parts: [String]) {
        #expect(ResearchPlan.parts(of: question) == parts)
    }

    @Test func longQuestionsAreDeepAndSearchedInGroups() {
        let question = "pacer buffer citations markdown tokens proxies keepalive timeouts backoff jitter"
        let plan = ResearchPlan(AnswerRequest(query: question))
        #expect(plan.tier == .deep)
        #expect(
            plan.queries.map(\.text) == [
                question, "pacer buffer citations markdown", "tokens proxies keepalive timeouts", "backoff jitter",
            ])
    }

    @Test func shortQuestionsAreQuick() {
        let plan = ResearchPlan(AnswerRequest(query: "How does Cadence resume an interrupted stream?"))
        #expect(plan.tier == .quick)
        #expect(plan.queries.count == 1)
        #expect(Set(plan.focus.keys) == ["cadenc", "resum", "interrupt", "stream"])
    }
}
