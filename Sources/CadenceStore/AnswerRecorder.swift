public import CadenceCore

/// Records one answer in a ``ConversationStore`` as its updates stream: the question first, then
/// checkpoints of the partial text at most once per ``interval``, then how it ended.
///
/// Feed it every `AnswerUpdate` in order with ``record(_:)``. Text that arrives between two
/// checkpoints is written by the next update after the interval, or by a trailing checkpoint when
/// the stream goes quiet, so a crash mid-answer loses at most one interval of text. Each checkpoint
/// appends only the text that arrived since the one before (and the sources and tier only when they
/// changed), so recording an answer writes its text once, however long it grows; after a failed
/// checkpoint the next one writes the whole text, so no piece is ever missing from the saved text. Writes happen
/// in the order they were asked for, never overlapping; the terminal update's write is awaited, so
/// when ``record(_:)`` returns for it the answer is saved.
///
/// Time comes from an injected clock.
///
/// ```swift
/// let recorder = AnswerRecorder(store: store, answerID: "a1", clock: ContinuousClock())
/// try await recorder.begin(in: conversation.id, query: "What is SSE?")
/// for await update in AnswerStream(request: request, transport: transport) {
///     try await recorder.record(update)
///     show(update)
/// }
/// ```
public actor AnswerRecorder {
    /// The answer being recorded.
    public nonisolated let answerID: String
    /// The shortest time between two checkpoints.
    public nonisolated let interval: Duration

    /// The text received so far.
    public private(set) var text = ""
    /// The sources received so far.
    public private(set) var sources: [Source] = []
    /// Whether the terminal update was recorded.
    public private(set) var isFinished = false
    /// How many checkpoints were written (for tests and diagnostics).
    public private(set) var checkpointCount = 0

    private let store: any ConversationStore
    private let elapsed: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private var tier: String?
    /// When the model reasoned, on the recorder's clock: saved with the ending as its length.
    private var reasoningSpan = ReasoningSpan()
    private var lastCheckpoint: Duration?
    private var hasUnsavedProgress = false
    /// The text that arrived since the last checkpoint.
    private var unsavedText = ""
    /// The sources and tier, when they changed since the last checkpoint.
    private var unsavedSources: [Source]?
    private var unsavedTier: String?
    /// Whether a checkpoint failed, so what is saved may miss a piece: the next one writes it all.
    private var savedTextMayBeIncomplete = false
    private var trailingCheckpoint: Task<Void, Never>?
    /// The newest write; each write waits for the one before it.
    private var lastWrite: Task<Void, any Error>?

    /// - Parameters:
    ///   - store: where the answer is recorded.
    ///   - answerID: the answer's id in the store.
    ///   - clock: the clock the interval is measured on.
    ///   - interval: the shortest time between two checkpoints; `.zero` checkpoints every update.
    public init<C: Clock>(
        store: any ConversationStore, answerID: String, clock: C, interval: Duration = .milliseconds(250)
    ) where C.Duration == Duration {
        self.store = store
        self.answerID = answerID
        self.interval = interval
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// Records the question, before any update. Beginning again (a retry) starts the answer over.
    public func begin(in conversationID: String, query: String) async throws {
        text = ""
        sources = []
        tier = nil
        reasoningSpan = ReasoningSpan()
        isFinished = false
        hasUnsavedProgress = false
        unsavedText = ""
        unsavedSources = nil
        unsavedTier = nil
        savedTextMayBeIncomplete = false
        lastCheckpoint = nil
        let store = store
        let id = answerID
        try await enqueue { _ = try await store.beginAnswer(id: id, in: conversationID, query: query) }
    }

    /// Applies one update: progress is checkpointed when the interval allows; the terminal update
    /// saves the answer. Throws the error of a write this call waited for. Updates after the
    /// terminal one are ignored.
    public func record(_ update: AnswerUpdate) async throws {
        guard !isFinished else { return }
        reasoningSpan.note(update, at: elapsed())
        switch update {
        case .textAppended(let chunk):
            guard !chunk.isEmpty else { return }
            text += chunk
            unsavedText += chunk
            hasUnsavedProgress = true
        case .sourcesMerged(let list):
            sources = list
            unsavedSources = list
            hasUnsavedProgress = true
        case .stageChanged(.tierSelected(let chosen, _)):
            tier = chosen
            unsavedTier = chosen
            hasUnsavedProgress = true
        case .stageChanged, .reconnecting, .reconnected:
            return
        case .reasoningAppended, .refusalAppended, .toolCallReceived:
            // Saved with the ending, which carries them whole; checkpoints keep the text.
            return
        case .completed, .failed, .cancelled:
            guard let ending = AnswerEnding(update) else { return }
            isFinished = true
            trailingCheckpoint?.cancel()
            let store = store
            let id = answerID
            let reasoningTime = reasoningSpan.duration
            try await enqueue { try await store.finishAnswer(id, with: ending, reasoningTime: reasoningTime) }
            return
        }
        try await checkpointIfDue()
    }

    /// Waits for every write asked for so far.
    public func flush() async throws {
        try await lastWrite?.value
    }

    // MARK: Steps

    private func checkpointIfDue() async throws {
        let now = elapsed()
        if let last = lastCheckpoint, now < last + interval {
            scheduleTrailingCheckpoint(at: last + interval)
            return
        }
        try await checkpoint(at: now)
    }

    private func checkpoint(at now: Duration) async throws {
        guard hasUnsavedProgress, !isFinished else { return }
        hasUnsavedProgress = false
        lastCheckpoint = now
        checkpointCount += 1
        let (store, id) = (store, answerID)
        let write: @Sendable () async throws -> Void
        if savedTextMayBeIncomplete {
            savedTextMayBeIncomplete = false
            let (text, sources, tier) = (text, sources, tier)
            write = { try await store.checkpointAnswer(id, text: text, sources: sources, tier: tier) }
        } else {
            let (chunk, sources, tier) = (unsavedText, unsavedSources, unsavedTier)
            write = { try await store.checkpointAnswer(id, appending: chunk, sources: sources, tier: tier) }
        }
        (unsavedText, unsavedSources, unsavedTier) = ("", nil, nil)
        do {
            try await enqueue(write)
        } catch {
            savedTextMayBeIncomplete = true
            throw error
        }
    }

    /// After a quiet spell, writes the progress that arrived since the last checkpoint.
    private func scheduleTrailingCheckpoint(at deadline: Duration) {
        guard trailingCheckpoint == nil else { return }
        let sleep = sleep
        trailingCheckpoint = Task { [weak self] in
            do { try await sleep(deadline) } catch { return }
            await self?.trailingCheckpointFired(at: deadline)
        }
    }

    private func trailingCheckpointFired(at deadline: Duration) async {
        trailingCheckpoint = nil
        try? await checkpoint(at: max(deadline, elapsed()))
    }

    private func enqueue(_ operation: @escaping @Sendable () async throws -> Void) async throws {
        let previous = lastWrite
        let write = Task {
            _ = try? await previous?.value
            try await operation()
        }
        lastWrite = write
        try await write.value
    }
}
