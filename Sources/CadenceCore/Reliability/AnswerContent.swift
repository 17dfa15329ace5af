/// Everything applied to one answer so far: text, reasoning, refusal, tool calls, merged sources,
/// the stored `complete`, and the sequence filter that keeps replays from doubling anything.
struct AnswerContent: Sendable {
    private(set) var text = ""
    /// The model's visible reasoning, apart from the text.
    private(set) var reasoning = ""
    /// The model's refusal, apart from the text.
    private(set) var refusal = ""
    private(set) var toolCalls: [ToolCall] = []
    private(set) var sources: [Source] = []
    private var sourceURLs: Set<String> = []
    /// The highest sequence number applied.
    private(set) var lastSequence: Int?
    /// The server's id for the answer, from the connection.
    var answerID: String?
    /// The `complete` event, stored until the stream really ends (deferred completion).
    private(set) var storedCompletion: Completion?
    /// Whether the model has begun to answer: a non-empty token, reasoning or refusal, or a tool call.
    private(set) var hasToken = false
    /// How many events were applied (duplicates dropped are not counted).
    private(set) var appliedEvents = 0
    /// Text (or reasoning, a refusal, a tool call) arrived without a sequence number after the last
    /// sequenced event. A resume from `lastSequence` could then replay it, so it is not offered.
    private var hasUnsequencedTextAfterCursor = false

    /// Where a resume would start, when resuming cannot lose or double text. Sequence numbers
    /// count from 1, so an answer with an id but no sequenced event yet resumes after 0 (from the start).
    var resumeCursor: ResumeCursor? {
        guard let answerID, !hasUnsequencedTextAfterCursor else { return nil }
        return ResumeCursor(answerID: answerID, lastSequence: lastSequence ?? 0)
    }

    /// Whether `event` was applied already (its sequence is not above the last applied one).
    func isDuplicate(_ event: ResearchEvent) -> Bool {
        guard let sequence = event.sequence, let lastSequence else { return false }
        return sequence <= lastSequence
    }

    /// Applies a non-terminal event and returns the updates it causes. `error` is the machine's to
    /// handle; here it only advances the sequence.
    mutating func apply(_ event: ResearchEvent) -> [AnswerUpdate] {
        appliedEvents += 1
        if let sequence = event.sequence {
            lastSequence = sequence
            hasUnsequencedTextAfterCursor = false
        }
        switch event.kind {
        case .token(let piece):
            guard !piece.isEmpty else { return [] }
            text += piece
            hasToken = true
            if event.sequence == nil { hasUnsequencedTextAfterCursor = true }
            return [.textAppended(piece)]
        case .reasoning(let piece):
            guard !piece.isEmpty else { return [] }
            reasoning += piece
            return modelOutputArrived(event, .reasoningAppended(piece))
        case .refusal(let piece):
            guard !piece.isEmpty else { return [] }
            refusal += piece
            return modelOutputArrived(event, .refusalAppended(piece))
        case .toolCall(let call):
            toolCalls.append(call)
            return modelOutputArrived(event, .toolCallReceived(call))
        case .sourcesReady(let list):
            return merge(list) + [.stageChanged(event.kind)]
        case .complete(let completion):
            storedCompletion = completion
            return merge(completion.sources)
        case .flushTokens, .error, .unknown:
            return []
        case .tierSelected, .searching, .searchComplete, .searchFailed, .planningStarted, .planningComplete,
            .roundStarted, .roundComplete, .reflectionStarted, .reflectionComplete, .sourceSelectionStarted, .synthesisStarted:
            return [.stageChanged(event.kind)]
        }
    }

    /// Notes model output other than text: it counts as the model's first token, and, without a
    /// sequence number, makes a resume unsafe, as text does.
    private mutating func modelOutputArrived(_ event: ResearchEvent, _ update: AnswerUpdate) -> [AnswerUpdate] {
        hasToken = true
        if event.sequence == nil { hasUnsequencedTextAfterCursor = true }
        return [update]
    }

    /// Adds the sources whose URL is new (the first source with a URL wins) and returns
    /// `sourcesMerged` when the list changed.
    private mutating func merge(_ list: [Source]) -> [AnswerUpdate] {
        var changed = false
        for source in list where sourceURLs.insert(source.url).inserted {
            sources.append(source)
            changed = true
        }
        return changed ? [.sourcesMerged(sources)] : []
    }

    /// Whether the model said anything a reader can be shown as its answer: text, a refusal or a
    /// tool call (reasoning alone is not an answer).
    var hasAnswer: Bool { !text.isEmpty || !refusal.isEmpty || !toolCalls.isEmpty }

    /// The server's completion with the merged sources and the whole text, reasoning, refusal and
    /// tool calls.
    func completion(reason: AnswerCompletion.Reason, timeout: AnswerTimeout? = nil) -> AnswerCompletion {
        AnswerCompletion(
            reason: reason, timeout: timeout, text: text, sources: sources,
            followUps: storedCompletion?.followUps ?? [], metadata: storedCompletion?.metadata ?? [:],
            reasoning: reasoning, refusal: refusal, toolCalls: toolCalls)
    }

    /// `failure` keeping the reasoning, refusal and tool calls received before it.
    func keeping(in failure: AnswerFailure) -> AnswerFailure {
        var failure = failure
        (failure.reasoning, failure.refusal, failure.toolCalls) = (reasoning, refusal, toolCalls)
        return failure
    }
}
