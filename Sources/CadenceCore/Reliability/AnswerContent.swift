/// Everything applied to one answer so far: text, merged sources, the stored `complete`, and the
/// sequence filter that keeps replays from doubling anything.
struct AnswerContent: Sendable {
    private(set) var text = ""
    private(set) var sources: [Source] = []
    private var sourceURLs: Set<String> = []
    /// The highest sequence number applied.
    private(set) var lastSequence: Int?
    /// The server's id for the answer, from the connection.
    var answerID: String?
    /// The `complete` event, stored until the stream really ends (deferred completion).
    private(set) var storedCompletion: Completion?
    /// Whether a non-empty token has arrived.
    private(set) var hasToken = false
    /// How many events were applied (duplicates dropped are not counted).
    private(set) var appliedEvents = 0
    /// Text arrived without a sequence number after the last sequenced event. A resume from
    /// `lastSequence` could then replay that text, so it is not offered.
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
        case .sourcesReady(let list):
            return merge(list) + [.stageChanged(event.kind)]
        case .complete(let completion):
            storedCompletion = completion
            return merge(completion.sources)
        case .flushTokens, .error, .unknown, .reasoning, .refusal, .toolCall:
            return []
        case .tierSelected, .searching, .searchComplete, .searchFailed, .planningStarted, .planningComplete,
            .roundStarted, .roundComplete, .reflectionStarted, .reflectionComplete, .sourceSelectionStarted, .synthesisStarted:
            return [.stageChanged(event.kind)]
        }
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

    /// The server's completion with the merged sources and the whole text.
    func completion(reason: AnswerCompletion.Reason, timeout: AnswerTimeout? = nil) -> AnswerCompletion {
        AnswerCompletion(
            reason: reason, timeout: timeout, text: text, sources: sources,
            followUps: storedCompletion?.followUps ?? [], metadata: storedCompletion?.metadata ?? [:])
    }
}
