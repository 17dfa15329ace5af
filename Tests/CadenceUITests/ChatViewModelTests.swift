import CadenceCore
import CadenceTesting
import CadenceUI
import Testing

@MainActor
@Suite struct ChatViewModelTests {
    let clock = ManualClock.stepping()
    let script = ScriptedAnswers()

    func makeChat() -> ChatViewModel {
        ChatViewModel(clock: clock, open: script.source)
    }

    func completion(_ text: String) -> AnswerUpdate {
        .completed(AnswerCompletion(reason: .completed, text: text))
    }

    /// Sends `question` and ends its answer (stream `index`) with `ending`, once the chat has it.
    @discardableResult
    func ask(_ chat: ChatViewModel, _ question: String, endingWith ending: AnswerUpdate, stream index: Int) async
        -> AnswerViewModel
    {
        let answer = chat.send(question)
        script.push(ending, into: index)
        await settle { answer.ending != nil }
        return answer
    }

    @Test func sendInsertsAPlaceholderFirstAndFollowsIt() {
        let chat = makeChat()
        let first = chat.send("First?")
        let second = chat.send("Second?")
        #expect(chat.answers.map(\.id) == [second.id, first.id])
        #expect(second.query == "Second?" && second.text.isEmpty && second.isEffectivelySearching)
        #expect(script.requests.map(\.query) == ["First?", "Second?"])
        #expect(chat.scrollRequests == 2)
        #expect(chat.isStreaming)
    }

    @Test func updatesGoToTheirOwnAnswer() async {
        let chat = makeChat()
        let first = chat.send("One")
        let second = chat.send("Two")
        script.push(.textAppended("second "), into: 1)
        script.push(.textAppended("first "), into: 0)
        script.push(.textAppended("text"), completion("second text"), into: 1)
        await settle { second.ending != nil && first.text == "first " }
        #expect(first.text == "first ")
        #expect(first.isStreaming)
        #expect(second.text == "second text")
        #expect(!second.isStreaming)
        #expect(chat.isStreaming, "the first answer still streams")
    }

    @Test func followUpsSendCompletedExchangesAsHistory() async {
        let chat = makeChat()
        await ask(chat, "What is SSE?", endingWith: completion("A stream of events."), stream: 0)
        await ask(chat, "And polling?", endingWith: .failed(AnswerFailure(.connection, message: "down")), stream: 1)
        chat.send("And WebSockets?")
        #expect(script.requests[0].history.isEmpty)
        #expect(
            script.requests[2].history == [
                ChatTurn(role: "user", content: "What is SSE?"),
                ChatTurn(role: "assistant", content: "A stream of events."),
            ])
    }

    @Test func aConversationOpenedAgainShowsItsAnswersAndContinuesWithTheirHistory() {
        let restored = AnswerViewModel(
            id: "answer-1", query: "What is SSE?",
            restoring: .completed(AnswerCompletion(reason: .completed, text: "A stream of events.")))
        let chat = ChatViewModel(clock: clock, answers: [restored], open: script.source)
        #expect(chat.answers.map(\.id) == ["answer-1"])
        #expect(!chat.needsFrames && !chat.isStreaming)
        #expect(chat.frame() == false)
        let next = chat.send("And resume?")
        #expect(next.id == "answer-2", "generated ids skip the restored ones")
        #expect(
            script.requests[0].history == [
                ChatTurn(role: "user", content: "What is SSE?"),
                ChatTurn(role: "assistant", content: "A stream of events."),
            ])
    }

    @Test func cancelKeepsThePartialTextAndIgnoresLateUpdates() async {
        let chat = makeChat()
        let answer = chat.send("Long one")
        script.push(.textAppended("Partial"), into: 0)
        await settle { answer.text == "Partial" }
        chat.cancel(answer.id)
        #expect(answer.ending == .cancelled(partialText: "Partial"))
        #expect(!chat.isStreaming)
        await settle { script.isEnded(0) }
        #expect(script.isEnded(0), "cancelling ends the stream")
        script.push(.textAppended(" late"), into: 0)
        await settle(maxTurns: 100) { false }
        #expect(answer.text == "Partial")
    }

    @Test func retryReplacesTheAnswerInPlaceAndIgnoresTheOldStream() async {
        let chat = makeChat()
        await ask(chat, "Older", endingWith: completion("Old answer."), stream: 0)
        let answer = chat.send("Flaky")
        chat.send("Newest")
        script.push(.textAppended("Wrong "), into: 1)
        await settle { answer.text == "Wrong " }
        let fresh = chat.retry(answer.id)
        #expect(fresh != nil && fresh !== answer)
        #expect(chat.answers.map(\.query) == ["Newest", "Flaky", "Older"])
        #expect(chat.answer(answer.id) === fresh)
        #expect(script.requests[3].query == "Flaky")
        #expect(script.requests[3].history == script.requests[1].history)
        #expect(script.requests[3].history.count == 2)
        script.push(.textAppended("stale"), into: 1)
        script.push(.textAppended("Right"), into: 3)
        await settle { fresh?.text == "Right" }
        #expect(fresh?.text == "Right")
        #expect(chat.retry("missing") == nil)
    }

    /// An update already handed to the old stream's consumer when the retry happens must not reach
    /// the new answer, which has the same id.
    @Test func anUpdateInFlightDuringARetryIsDropped() async {
        let chat = makeChat()
        let answer = chat.send("Flaky")
        await settle(maxTurns: 100) { false }  // the stream's consumer is now waiting for an update
        script.push(.textAppended("in flight"), into: 0)
        let fresh = chat.retry(answer.id)
        script.push(.textAppended("fresh"), into: 1)
        await settle { fresh?.text == "fresh" }
        await settle(maxTurns: 100) { false }
        #expect(fresh?.text == "fresh")
    }

    @Test func framesAnimateAndPinnedListScrollsAtMostEveryHundredMilliseconds() async {
        let chat = makeChat()
        let answer = chat.send("q")
        let text = (1...30).map { "Paragraph \($0) says something.\n\n" }.joined()
        script.push(.textAppended(text), completion(text), into: 0)
        await settle { answer.ending != nil }
        let scrollsBefore = chat.scrollRequests
        var frames = 0
        while chat.needsFrames && frames < 2_000 {
            clock.advance(by: .milliseconds(16))
            chat.frame()
            frames += 1
        }
        #expect(answer.visibleText == text && answer.showsActions)
        let scrolls = chat.scrollRequests - scrollsBefore
        #expect(scrolls >= 1)
        #expect(scrolls <= frames * 16 / 100 + 1)
        #expect(scrolls < frames, "never one scroll per frame")
    }

    @Test func unpinnedListCountsNewBlocksForThePill() async {
        let chat = makeChat()
        let answer = chat.send("q")
        chat.userDragged()
        #expect(!chat.isPinned)
        let text = (1...12).map { "Block \($0).\n\n" }.joined()
        script.push(.textAppended(text), completion(text), into: 0)
        await settle { answer.ending != nil }
        let scrollsBefore = chat.scrollRequests
        while chat.needsFrames {
            clock.advance(by: .milliseconds(16))
            chat.frame()
        }
        #expect(chat.pillCount == 12)
        #expect(chat.scrollRequests == scrollsBefore)
        chat.pillTapped()
        #expect(chat.pillCount == nil && chat.isPinned)
        #expect(chat.scrollRequests == scrollsBefore + 1)
    }

    @Test func scrollingBackToTheBottomHidesThePill() async {
        let chat = makeChat()
        let answer = chat.send("q")
        chat.userDragged()
        script.push(.textAppended("One.\n\nTwo.\n\n"), completion("One.\n\nTwo.\n\n"), into: 0)
        await settle { answer.ending != nil }
        while chat.needsFrames {
            clock.advance(by: .milliseconds(16))
            chat.frame()
        }
        #expect(chat.pillCount != nil)
        chat.scrolled(distanceFromBottom: 20)
        #expect(chat.pillCount == nil && chat.isPinned)
    }

    @Test func sourceAdapterForwardsAnySequenceAndEndsIt() async {
        let source = ChatViewModel.source { request in
            AsyncStream<AnswerUpdate> { continuation in
                continuation.yield(.textAppended(request.query.uppercased()))
                continuation.yield(.cancelled(partialText: request.query.uppercased()))
                continuation.finish()
            }
        }
        var received: [AnswerUpdate] = []
        for await update in source(AnswerRequest(query: "hi")) { received.append(update) }
        #expect(received == [.textAppended("HI"), .cancelled(partialText: "HI")])
    }
}
