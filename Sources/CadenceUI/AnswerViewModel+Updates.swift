public import CadenceCore
import CadenceMarkdown
import CadencePacing

extension AnswerViewModel {
    /// Applies one update of the answer's stream. `arrival` is when it arrived on the frame clock,
    /// if known; otherwise the next frame's time stands for it. Updates after the terminal one are
    /// ignored.
    ///
    /// ```swift
    /// answer.apply(.textAppended("Server-sent events "), at: .milliseconds(120))
    /// answer.apply(.completed(completion))
    /// ```
    public func apply(_ update: AnswerUpdate, at arrival: Duration? = nil) {
        guard ending == nil else { return }
        noteReasoningTime(update, at: arrival)
        switch update {
        case .textAppended(let chunk):
            withMutation(keyPath: \.text) { pacer.append(chunk, at: arrival) }
            let wasAnimating = isAnimating
            isAnimating = pacer.visibleScalarCount < pacer.receivedScalarCount
            // Received text shows only once the pacer reveals it (a frame then says so).
            if isAnimating != wasAnimating { changed() }
            return
        case .reasoningAppended(let piece):
            reasoning += piece
        case .refusalAppended(let piece):
            refusal += piece
        case .toolCallReceived(let call):
            toolCalls.append(call)
        case .sourcesMerged(let list):
            mergeSources(list)
        case .stageChanged(let kind):
            applyStage(kind)
        case .reconnecting, .reconnected:
            applyConnection(update, at: arrival)
        case .completed(let completion):
            settleText(completion.text)
            mergeSources(completion.sources)
            followUps = completion.followUps
            metadata = completion.metadata
            settleModelOutput(completion.reasoning, completion.refusal, completion.toolCalls)
            end(.completed(completion), update, at: arrival)
        case .failed(let failure):
            settleText(failure.partialText)
            mergeSources(failure.sources)
            settleModelOutput(failure.reasoning, failure.refusal, failure.toolCalls)
            end(.failed(failure), update, at: arrival)
        case .cancelled(let partialText):
            settleText(partialText)
            pacer.stop()
            end(.cancelled(partialText: partialText), update, at: arrival)
        }
        changed()
    }

    private func applyStage(_ kind: ResearchEvent.Kind) {
        switch kind {
        case .token, .flushTokens, .reasoning, .refusal, .toolCall, .complete, .error, .unknown:
            return
        case .tierSelected(let chosen, _):
            tier = chosen
        case .sourcesReady(let list):
            mergeSources(list)
        case .searching, .searchComplete, .searchFailed, .planningStarted, .planningComplete, .roundStarted, .roundComplete,
            .reflectionStarted, .reflectionComplete, .sourceSelectionStarted, .synthesisStarted:
            break
        }
        stage = kind
        stages.append(kind)
    }

    /// Opens or closes ``reasoningSpan`` at `arrival`, or at the next frame when the update came
    /// without a time. At most one opening and one closing update wait for a frame.
    private func noteReasoningTime(_ update: AnswerUpdate, at arrival: Duration?) {
        guard reasoningSpan.end == nil else { return }
        let opens = if case .reasoningAppended = update { true } else { false }
        let waiting = unstampedSpanUpdates.count
        let matters = opens ? reasoningSpan.start == nil && waiting == 0 : reasoningSpan.start != nil || waiting == 1
        guard matters else { return }
        if let arrival, waiting == 0 {
            reasoningSpan.note(update, at: arrival)
        } else {
            unstampedSpanUpdates.append(update)
        }
    }

    /// Makes the reasoning, refusal and tool calls the terminal update's: they only replace what
    /// arrived when the update has them (a cancellation or a failure from history may not).
    private func settleModelOutput(_ final: String, _ finalRefusal: String, _ finalCalls: [ToolCall]) {
        if !final.isEmpty, final != reasoning { reasoning = final }
        if !finalRefusal.isEmpty, finalRefusal != refusal { refusal = finalRefusal }
        if !finalCalls.isEmpty, finalCalls != toolCalls { toolCalls = finalCalls }
    }

    private func applyConnection(_ update: AnswerUpdate, at arrival: Duration?) {
        guard let arrival else {
            unstampedConnectionUpdates.append(update)
            return
        }
        if bannerState.apply(update, now: arrival) { banner = bannerState.banner }
    }

    private func end(_ ending: AnswerEnding, _ update: AnswerUpdate, at arrival: Duration?) {
        pacer.finish()
        self.ending = ending
        if arrival != nil || !unstampedConnectionUpdates.isEmpty {
            applyConnection(update, at: arrival)
        } else if bannerState.answerEnded() {
            banner = bannerState.banner
        }
        showRevealedText()
    }

    /// Adds sources whose URL is new, keeping first-seen order.
    private func mergeSources(_ list: [Source]) {
        var known = Set(sources.map(\.url))
        var merged = sources
        for source in list where known.insert(source.url).inserted {
            merged.append(source)
        }
        if merged.count != sources.count { sources = merged }
    }

    /// Makes ``text`` the terminal update's full text. Normally that only appends what the stream
    /// had not delivered; if it disagrees with what was shown, the final text replaces it, in full.
    private func settleText(_ final: String) {
        let text = pacer.text
        if final.utf8.count == text.utf8.count, final.utf8.elementsEqual(text.utf8) { return }
        if final.utf8.starts(with: text.utf8) {
            let start = final.utf8.index(final.utf8.startIndex, offsetBy: text.utf8.count)
            // Scalar view: a Character-based slice would round a mid-cluster start down.
            let rest = Substring(final.unicodeScalars[start...])
            withMutation(keyPath: \.text) { pacer.append(rest) }
            return
        }
        withMutation(keyPath: \.text) {
            pacer = DisplayPacer(completedText: final, mode: pacer.mode, configuration: pacer.configuration)
        }
        markdown = MarkdownDocument(options: markdown.options)
        withMutation(keyPath: \.visibleText) { shownUTF8 = 0 }
    }
}
