import CadenceCore
import CadenceMarkdown
import CadencePacing
import CadenceTesting
import CadenceUI
import Observation
import Testing

@MainActor
@Suite struct AnswerViewModelTests {
    nonisolated static let answer = """
        # Server-sent events

        SSE is a **one-way** stream over HTTP [1]. Browsers reconnect on their own [2].

        - events are lines of text
        - each ends with a blank line

        ```swift
        let stream = client.events()
        ```

        That is all.
        """

    nonisolated static let sources = [
        Source(id: "1", title: "Spec", url: "https://html.spec.whatwg.org/"),
        Source(id: "2", title: "MDN", url: "https://developer.mozilla.org/"),
    ]

    /// Runs 16 ms frames from `start` until the answer needs none, at most `limit` frames.
    /// Returns the time after the last frame.
    @discardableResult
    static func drain(_ model: AnswerViewModel, from start: Int, limit: Int = 2_000) -> Int {
        var now = start
        for _ in 0..<limit where model.needsFrames {
            now += 16
            model.frame(now: .milliseconds(now))
        }
        return now
    }

    @Test func backendTextArrivesAtOnceAndVisibleTextFollowsOnFrames() {
        let model = AnswerViewModel(id: "a", query: "What is SSE?")
        #expect(model.isStreaming && model.isEffectivelySearching && !model.showsActions)
        model.apply(.textAppended("Hello there, this is a streamed answer. "), at: .zero)
        #expect(model.text == "Hello there, this is a streamed answer. ")
        #expect(model.visibleText == "")
        #expect(model.isAnimating)
        var lengths: [Int] = []
        for frame in 1...10 {
            model.frame(now: .milliseconds(frame * 16))
            #expect(model.text.hasPrefix(model.visibleText))
            lengths.append(model.visibleText.count)
        }
        #expect(lengths.last! > 0)
        #expect(lengths == lengths.sorted())
        #expect(model.isEffectivelySearching)
        #expect(!model.showsActions)
    }

    @Test func actionsWaitForBothTheBackendAndTheAnimation() {
        let model = AnswerViewModel(id: "a", query: "q")
        for (index, chunk) in Self.answer.chunks(ofCharacters: 40).enumerated() {
            model.apply(.textAppended(chunk), at: .milliseconds(index * 20))
        }
        model.frame(now: .milliseconds(100))
        model.apply(.completed(AnswerCompletion(reason: .completed, text: Self.answer)), at: .milliseconds(110))
        #expect(!model.isStreaming)
        #expect(model.isAnimating)
        #expect(model.isEffectivelySearching)
        #expect(!model.showsActions)
        let end = Self.drain(model, from: 110)
        #expect(end < 110 + 16 * 20, "the rest appears within the end drain")
        #expect(model.visibleText == Self.answer)
        #expect(!model.isAnimating && !model.isEffectivelySearching && model.showsActions)
        #expect(model.document == MarkdownParser().parse(Self.answer))
        #expect(model.committedBlockCount == model.document.blocks.count)
        #expect(model.frame(now: .milliseconds(end + 16)) == false)
    }

    /// Each frame's document equals a fresh parse of the visible text, and committed blocks never change.
    @Test(arguments: [1, 7, 64])
    func documentFollowsTheVisibleTextIncrementally(chunkSize: Int) {
        let model = AnswerViewModel(id: "a", query: "q")
        var now = 0
        var committed: [Block] = []
        var changedFrames = 0
        for chunk in Self.answer.chunks(ofCharacters: chunkSize) {
            model.apply(.textAppended(chunk), at: .milliseconds(now))
            for _ in 0..<(chunkSize < 8 ? 1 : 12) {
                now += 16
                guard model.frame(now: .milliseconds(now)) else { continue }
                changedFrames += 1
                var fresh = MarkdownDocument()
                fresh.append(model.visibleText)
                #expect(model.document.blocks == fresh.committed + fresh.tail)
                #expect(Array(model.document.blocks.prefix(committed.count)) == committed)
                committed = Array(model.document.blocks.prefix(model.committedBlockCount))
            }
        }
        #expect(changedFrames > 3)
        model.apply(.completed(AnswerCompletion(reason: .completed, text: Self.answer)))
        Self.drain(model, from: now)
        #expect(model.document == MarkdownParser().parse(Self.answer))
    }

    @Test func sourcesAreMergedAndDeduplicatedByURL() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.stageChanged(.sourcesReady([Self.sources[0]])))
        model.apply(.sourcesMerged(Self.sources))
        model.apply(.sourcesMerged([Source(id: "9", title: "Spec again", url: "https://html.spec.whatwg.org/")]))
        let third = Source(id: "3", title: "RFC", url: "https://www.rfc-editor.org/")
        model.apply(.completed(AnswerCompletion(reason: .completed, text: "", sources: [third, Self.sources[1]])))
        #expect(model.sources == Self.sources + [third])
    }

    @Test func stageTierFollowUpsAndMetadata() {
        let model = AnswerViewModel(id: "a", query: "q")
        #expect(model.stage == nil)
        model.apply(.stageChanged(.tierSelected(tier: "deep", reason: "broad question")))
        #expect(model.tier == "deep")
        model.apply(.stageChanged(.roundStarted(round: 2, message: nil)))
        #expect(model.stage == .roundStarted(round: 2, message: nil))
        model.apply(.stageChanged(.flushTokens))
        #expect(model.stage == .roundStarted(round: 2, message: nil))
        #expect(
            model.stages == [
                .tierSelected(tier: "deep", reason: "broad question"), .roundStarted(round: 2, message: nil),
            ])
        let completion = AnswerCompletion(
            reason: .completed, text: "Done.", followUps: ["Why?", "How?"], metadata: ["ms": .number(12)])
        model.apply(.completed(completion))
        #expect(model.followUps == ["Why?", "How?"])
        #expect(model.metadata == ["ms": .number(12)])
        #expect(model.ending == .completed(completion))
    }

    @Test func completionAddsTextTheStreamDidNotDeliver() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.textAppended("Cafe"), at: .zero)
        model.apply(.completed(AnswerCompletion(reason: .completed, text: "Cafe\u{301} au lait")))
        #expect(model.text == "Cafe\u{301} au lait")
        Self.drain(model, from: 0)
        #expect(model.visibleText.unicodeScalars.elementsEqual("Cafe\u{301} au lait".unicodeScalars))
    }

    /// A combining mark that arrives after its base letter was shown extends the visible cluster;
    /// the newly visible text starts inside that cluster and must be appended exactly once.
    @Test func aCombiningMarkAfterAStallIsAppendedOnce() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.textAppended("Cafe"), at: .zero)
        var now = 0
        while model.visibleText != "Cafe" && now < 5_000 {
            now += 16
            model.frame(now: .milliseconds(now))
        }
        #expect(model.visibleText == "Cafe", "the stalled partial word is released")
        model.apply(.textAppended("\u{301} au lait"), at: .milliseconds(now))
        model.apply(.completed(AnswerCompletion(reason: .completed, text: "Cafe\u{301} au lait")))
        Self.drain(model, from: now)
        #expect(Array(model.visibleText.unicodeScalars) == Array("Cafe\u{301} au lait".unicodeScalars))
        #expect(model.document == MarkdownParser().parse("Cafe\u{301} au lait"))
    }

    @Test func finalTextThatDisagreesReplacesTheShownText() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.textAppended("Wrong start"), at: .zero)
        Self.drain(model, from: 0, limit: 30)
        model.apply(.completed(AnswerCompletion(reason: .completed, text: "Right *text*")))
        #expect(model.text == "Right *text*")
        #expect(model.visibleText == "Right *text*")
        #expect(model.document == MarkdownParser().parse("Right *text*"))
        #expect(model.showsActions)
    }

    @Test func failureKeepsThePartialTextAndEndsTheAnimation() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.textAppended("Partial answer so far"), at: .zero)
        let failure = AnswerFailure(.interrupted, message: "connection lost", partialText: "Partial answer so far")
        model.apply(.failed(failure), at: .milliseconds(5))
        #expect(model.ending == .failed(failure))
        #expect(model.isEffectivelySearching)
        Self.drain(model, from: 5)
        #expect(model.visibleText == "Partial answer so far")
        #expect(model.showsActions)
    }

    @Test func cancelShowsEverythingAtOnce() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.textAppended(Self.answer), at: .zero)
        model.frame(now: .milliseconds(16))
        #expect(model.visibleText.count < Self.answer.count)
        model.apply(.cancelled(partialText: Self.answer))
        #expect(model.visibleText == Self.answer)
        #expect(!model.isAnimating && model.showsActions && !model.needsFrames)
        #expect(model.document == MarkdownParser().parse(Self.answer))
    }

    @Test func revealAllSkipsTheAnimationButNotTheStream() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.textAppended("First part. "), at: .zero)
        model.revealAll()
        #expect(model.visibleText == "First part. ")
        #expect(model.isEffectivelySearching, "the backend still streams")
        model.apply(.textAppended("Second part."), at: .milliseconds(20))
        model.frame(now: .milliseconds(32))
        #expect(model.visibleText == "First part. Second part.")
    }

    @Test func updatesAfterTheEndAreIgnored() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.cancelled(partialText: ""))
        model.apply(.textAppended("late"))
        model.apply(.sourcesMerged(Self.sources))
        #expect(model.text == "" && model.sources.isEmpty)
        #expect(model.ending == .cancelled(partialText: ""))
        #expect(model.showsActions)
    }

    @Test(arguments: [
        AnswerEnding.completed(AnswerCompletion(reason: .completed, text: answer, sources: sources)),
        .failed(AnswerFailure(.timedOut, message: "too slow", partialText: answer)),
        .cancelled(partialText: answer),
    ])
    func answerFromHistoryShowsFullyWithoutReplay(ending: AnswerEnding) {
        let model = AnswerViewModel(id: "old", query: "q", restoring: ending)
        #expect(model.visibleText == Self.answer)
        #expect(model.text == Self.answer)
        #expect(model.ending == ending)
        #expect(!model.isAnimating && !model.isEffectivelySearching && model.showsActions)
        #expect(!model.needsFrames)
        #expect(model.document == MarkdownParser().parse(Self.answer))
        #expect(model.frame(now: .milliseconds(16)) == false)
    }

    @Test func bannerFollowsTheConnection() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.reconnecting(attempt: 2, after: .seconds(1)), at: .seconds(5))
        #expect(model.banner == .reconnecting(attempt: 2, startsAt: .seconds(6)))
        #expect(model.isEffectivelySearching)
        model.apply(.reconnected, at: .seconds(6))
        #expect(model.banner == .reconnected)
        #expect(model.needsFrames)
        #expect(model.frame(now: .milliseconds(7_999)) == false)
        #expect(model.frame(now: .seconds(8)) == true)
        #expect(model.banner == nil)
        #expect(!model.needsFrames)
    }

    @Test func unstampedConnectionUpdatesTakeTheNextFramesTime() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.reconnected)
        #expect(model.banner == nil)
        #expect(model.needsFrames)
        #expect(model.frame(now: .seconds(10)) == true)
        #expect(model.banner == .reconnected)
        model.frame(now: .milliseconds(11_999))
        #expect(model.banner == .reconnected)
        model.frame(now: .seconds(12))
        #expect(model.banner == nil)
    }

    @Test func terminalUpdateClearsReconnecting() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.reconnecting(attempt: 1, after: .zero), at: .zero)
        model.apply(.failed(AnswerFailure(.connection, message: "gave up")), at: .seconds(1))
        #expect(model.banner == nil)
    }

    @Test func unstampedTerminalUpdateClearsReconnectingAtOnce() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.reconnecting(attempt: 1, after: .zero), at: .zero)
        model.apply(.cancelled(partialText: ""))
        #expect(model.banner == nil)
        #expect(!model.needsFrames)
    }

    @Test func unstampedUpdatesKeepTheirOrderUntilTheNextFrame() {
        let model = AnswerViewModel(id: "a", query: "q")
        model.apply(.reconnecting(attempt: 1, after: .zero))
        model.apply(.failed(AnswerFailure(.connection, message: "gave up")))
        model.frame(now: .seconds(1))
        #expect(model.banner == nil)
        #expect(!model.needsFrames)
    }

    /// Observers of the visible text are not woken by network chunks, only by frames that reveal text.
    @Test func visibleTextObserversWakeOnlyOnFrames() {
        final class Flag: @unchecked Sendable { var raised = false }
        let model = AnswerViewModel(id: "a", query: "q")
        func observeVisibleText() -> Flag {
            let flag = Flag()
            withObservationTracking {
                _ = model.visibleText
            } onChange: {
                flag.raised = true
            }
            return flag
        }
        var flag = observeVisibleText()
        model.apply(.textAppended("Some words arrive here. "), at: .zero)
        #expect(!flag.raised)
        for frame in 1...5 { model.frame(now: .milliseconds(frame * 16)) }
        #expect(flag.raised)
        flag = observeVisibleText()
        model.apply(.stageChanged(.synthesisStarted(message: nil)))
        #expect(!flag.raised)
    }

    /// `text` and `visibleText` read the pacer's copy of the answer, yet are observed like stored
    /// properties: text observers wake on each token and on a completion that replaces the text;
    /// visible-text observers wake when a replacing text takes back what was shown, even when
    /// it has nothing to reveal.
    @Test func textObserversWakeOnTokensAndOnReplacedText() {
        final class Flag: @unchecked Sendable { var raised = false }
        let model = AnswerViewModel(id: "a", query: "q")
        func observe(_ read: @escaping () -> Void) -> Flag {
            let flag = Flag()
            withObservationTracking(read) { flag.raised = true }
            return flag
        }
        var flag = observe { _ = model.text }
        model.apply(.textAppended("Wrong words. "), at: .zero)
        #expect(flag.raised)
        #expect(model.text == "Wrong words. ")
        for frame in 1...200 { model.frame(now: .milliseconds(frame * 16)) }
        #expect(model.visibleText == "Wrong words. ")
        flag = observe { _ = model.text }
        let shown = observe { _ = model.visibleText }
        model.apply(
            .completed(AnswerCompletion(reason: .completed, text: "Right words.")),
            at: .seconds(4))
        #expect(flag.raised && shown.raised)
        #expect(model.text == "Right words.")
        model.frame(now: .seconds(5))
        #expect(model.visibleText == "Right words.")

        // A replacing text with nothing left to reveal still takes back what was shown.
        let emptied = AnswerViewModel(id: "b", query: "q")
        emptied.apply(.textAppended("Shown, then withdrawn. "), at: .zero)
        for frame in 1...200 { emptied.frame(now: .milliseconds(frame * 16)) }
        #expect(emptied.visibleText == "Shown, then withdrawn. ")
        let withdrawn = observe { _ = emptied.visibleText }
        emptied.apply(.completed(AnswerCompletion(reason: .completed, text: "")), at: .seconds(4))
        #expect(withdrawn.raised)
        #expect(emptied.visibleText.isEmpty && emptied.text.isEmpty)
    }

    /// The version changes exactly when what the answer shows changes, so a view that keeps the last
    /// version it drew redraws on every visible change and on nothing else.
    @Test func theVersionChangesWhenWhatShowsChanges() {
        let model = AnswerViewModel(id: "a", query: "q")
        var drawn = model.version
        func changed() -> Bool {
            defer { drawn = model.version }
            return model.version != drawn
        }
        model.apply(.stageChanged(.searching(source: "corpus")), at: .zero)
        #expect(changed(), "a stage shows")
        model.apply(.sourcesMerged(Self.sources), at: .zero)
        #expect(changed(), "sources show")
        model.apply(.textAppended("Words arrive "), at: .zero)
        #expect(changed(), "the answer starts animating")
        model.apply(.textAppended("in a burst "), at: .zero)
        #expect(!changed(), "received text shows only when the pacer reveals it")
        var revealed = false
        for frame in 1...60 where model.frame(now: .milliseconds(frame * 16)) {
            revealed = true
            #expect(changed(), "a frame that reveals text")
        }
        #expect(revealed)
        #expect(!model.frame(now: .seconds(2)) && !changed(), "a frame that reveals nothing")
        model.apply(.completed(AnswerCompletion(reason: .completed, text: "Words arrive in a burst ")), at: .seconds(2))
        #expect(changed(), "the ending shows")
        _ = model.frame(now: .seconds(3))
        _ = changed()
        #expect(!model.frame(now: .seconds(4)) && !changed())
    }

    @Test func versionsAreUniqueAcrossAnswers() {
        let first = AnswerViewModel(id: "a", query: "q")
        first.apply(.stageChanged(.searching(source: "corpus")), at: .zero)
        let retried = AnswerViewModel(id: "a", query: "q")
        retried.apply(.stageChanged(.searching(source: "corpus")), at: .zero)
        #expect(first.version != retried.version, "a retry under the same id never repeats a version")
        let restored = AnswerViewModel(id: "b", query: "q", restoring: .cancelled(partialText: "Half"))
        #expect(Set([first.version, retried.version, restored.version]).count == 3)
    }
}

/// What the view model says about its citations: which numbers are sources, which checks failed.
@MainActor
@Suite struct AnswerViewModelCitationTests {
    static let sources = (1...3).map { Source(id: String($0), title: "S\($0)", url: "https://example.com/\($0)") }

    @Test func sourcesAndFailedChecksMakeTheDisplay() {
        let model = AnswerViewModel(id: "a", query: "q")
        #expect(model.citationDisplay == CitationDisplay(sources: []), "no sources yet: [1] is text")
        model.apply(.sourcesMerged(Self.sources), at: .zero)
        model.apply(.textAppended("One [1]. Two [2]."), at: .zero)
        #expect(model.citationDisplay == CitationDisplay(sources: [1, 2, 3]))
        #expect(model.unsupportedCitations.isEmpty)
        let metadata: [String: JSONValue] = [
            "citations": [
                ["ordinal": 1, "source": 1, "supported": true, "score": 0.9, "sentence": "One"],
                ["ordinal": 2, "source": 2, "supported": false, "score": 0.1, "sentence": "Two"],
            ]
        ]
        model.apply(
            .completed(AnswerCompletion(reason: .completed, text: "One [1]. Two [2].", sources: Self.sources, metadata: metadata)),
            at: .zero)
        #expect(
            model.unsupportedCitations == [CitationCheck(ordinal: 2, source: 2, sentence: "Two", score: 0.1, supported: false)])
        #expect(model.citationDisplay == CitationDisplay(sources: [1, 2, 3], unsupported: [2: 2]))
    }
}
