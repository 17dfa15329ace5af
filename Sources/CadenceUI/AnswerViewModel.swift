public import CadenceCore
public import CadenceMarkdown
public import CadencePacing
public import CadenceStore
public import Observation

/// One answer on screen: what the backend has said, and what the display pacer has revealed,
/// kept apart.
///
/// Feed it every `AnswerUpdate` of the answer's stream with ``apply(_:at:)``, and call
/// ``frame(now:)`` once per display frame while ``needsFrames``. Backend state (``text``,
/// ``sources``, ``stage``, ``followUps``, ``ending``) changes as updates arrive; display state
/// (``visibleText``, ``document``, ``isAnimating``) changes only on frames, at the pacer's rhythm.
/// The markdown ``document`` of the visible text is built incrementally: each frame appends only
/// the newly visible text to a `MarkdownDocument`, never re-parsing what came before.
///
/// A finished answer opened again (``init(id:query:restoring:)``) shows fully at once, with no replay.
///
/// ```swift
/// let answer = AnswerViewModel(id: "a1", query: "What is SSE?")
/// for try await update in stream { answer.apply(update) }       // on the main actor
/// // in the display-frame callback:
/// if answer.frame(now: clock.now - origin) { redraw(answer.document) }
/// actionsRow.isHidden = !answer.showsActions
/// ```
@Observable @MainActor
public final class AnswerViewModel: Identifiable {
    /// Identifies the answer, to route a stream's updates to it.
    public let id: String
    /// The question this answers.
    public let query: String

    // MARK: Backend state

    /// Every token received, in order.
    ///
    /// The answer's text is held once, by the pacer; this and ``visibleText`` read it (observed
    /// like stored properties: `text` changes with every token, `visibleText` only on frames).
    public var text: String {
        access(keyPath: \.text)
        return pacer.text
    }
    /// Sources from the stream, merged and deduplicated by URL, in first-seen order.
    public internal(set) var sources: [Source] = []
    /// The latest research stage (searching, planning, rounds, reflection, synthesis, …), if any.
    public internal(set) var stage: ResearchEvent.Kind?
    /// Every research stage so far, in order, for a stage-by-stage status.
    public internal(set) var stages: [ResearchEvent.Kind] = []
    /// The research tier the server chose (`"quick"`, `"deep"`, …), if it said.
    public internal(set) var tier: String?
    /// Suggested follow-up questions, known once the answer completes.
    public internal(set) var followUps: [String] = []
    /// The completion's metadata (timings, counts, engine details).
    public internal(set) var metadata: [String: JSONValue] = [:]
    /// How the answer ended, or `nil` while the backend still streams.
    ///
    /// ```swift
    /// if case .failed(let failure) = answer.ending { errorLine = failure.message }
    /// ```
    public internal(set) var ending: AnswerEnding?
    /// The model's visible reasoning so far, shown apart from the answer (folded once the answer
    /// starts). Not paced: it shows as it arrives.
    public internal(set) var reasoning = ""
    /// The model's refusal, shown as a refusal rather than as answer text; empty when it did not refuse.
    public internal(set) var refusal = ""
    /// The tool calls the model made, in order. Cadence does not run them.
    public internal(set) var toolCalls: [ToolCall] = []
    /// When the reasoning started and ended, on the clock of ``apply(_:at:)``'s arrival times:
    /// `reasoningSpan.summary` is the folded line ("thought for 4 s"). An answer read back from
    /// history has the span's length, when it was recorded.
    public internal(set) var reasoningSpan = ReasoningSpan()

    // MARK: Display state

    /// The text the pacer has revealed so far: a prefix of ``text``. Reading it while the
    /// animation runs copies that prefix; once everything shows, it is ``text`` itself.
    public var visibleText: String {
        access(keyPath: \.visibleText)
        let text = pacer.text
        guard shownUTF8 < text.utf8.count else { return text }
        let end = text.utf8.index(text.utf8.startIndex, offsetBy: shownUTF8)
        // Scalar view: the end may be inside a cluster that a late combining mark extended.
        return String(Substring(text.unicodeScalars[..<end]))
    }
    /// The markdown of ``visibleText``: open constructs closed virtually while it grows, the
    /// final tree once the animation is over.
    public internal(set) var document = MarkdownTree(blocks: [])
    /// How many blocks at the start of ``document`` are final and will never change.
    public internal(set) var committedBlockCount = 0
    /// Whether received text is still waiting to be revealed.
    public internal(set) var isAnimating = false
    /// The connection banner to show over this answer, if any.
    public internal(set) var banner: ConnectionBannerState.Banner?

    // MARK: Changes

    /// Changes whenever what this answer shows changes (its revealed document, stage, sources,
    /// follow-ups, metadata, ending, animation or banner), so a view can redraw from what changed
    /// instead of comparing whole answers: keep the last version drawn, and draw again when it
    /// differs. Text that arrives does not change it until the pacer reveals it. Versions are unique
    /// across answers, so an answer replaced by another (a retry) never shows an old version.
    ///
    /// ```swift
    /// if answer.version != drawnVersion { redraw(answer); drawnVersion = answer.version }
    /// ```
    public private(set) var version = AnswerViewModel.newVersion()

    /// The last version given to any answer.
    private static var lastVersion = 0

    private static func newVersion() -> Int {
        lastVersion += 1
        return lastVersion
    }

    /// Records that what this answer shows changed.
    func changed() {
        version = Self.newVersion()
    }

    @ObservationIgnored var pacer: DisplayPacer
    @ObservationIgnored var markdown = MarkdownDocument()
    @ObservationIgnored var isDocumentFinished = false
    /// How much of the pacer's text (UTF-8 bytes) is shown: ``visibleText`` and ``markdown``.
    @ObservationIgnored var shownUTF8 = 0
    @ObservationIgnored var bannerState: ConnectionBannerState
    /// Connection updates that came without a time, applied at the next frame.
    @ObservationIgnored var unstampedConnectionUpdates: [AnswerUpdate] = []
    /// Updates that may open or close ``reasoningSpan`` and came without a time, noted at the next frame.
    @ObservationIgnored var unstampedSpanUpdates: [AnswerUpdate] = []

    /// An answer about to stream. `pacer` sets how text is revealed.
    public init(
        id: String, query: String, pacer: DisplayPacer = DisplayPacer(),
        banner: ConnectionBannerState.Configuration = .standard
    ) {
        self.id = id
        self.query = query
        self.pacer = pacer
        bannerState = ConnectionBannerState(configuration: banner)
    }

    /// A finished answer (from history, or a conversation opened again): shown fully at once.
    ///
    /// ```swift
    /// let restored = AnswerViewModel(id: "a1", query: "q", restoring: .cancelled(partialText: "Half"))
    /// ```
    public convenience init(id: String, query: String, restoring ending: AnswerEnding) {
        self.init(id: id, query: query)
        apply(ending.update)
        self.ending = ending
        pacer = DisplayPacer(completedText: text, mode: pacer.mode, configuration: pacer.configuration)
        showRevealedText()
    }

    /// An answer read back from a `ConversationStore`, shown fully at once. One the store still
    /// has as streaming (another process is writing it) shows as interrupted here.
    public convenience init(restoring stored: StoredAnswer) {
        self.init(id: stored.id, query: stored.query, restoring: stored.ending)
        if let tier = stored.tier { self.tier = tier }
        if sources.isEmpty { sources = stored.sources }
        if reasoning.isEmpty, refusal.isEmpty, toolCalls.isEmpty {
            (reasoning, refusal, toolCalls) = (stored.reasoning, stored.refusal, stored.toolCalls)
        }
        if let time = stored.reasoningTime, !stored.reasoning.isEmpty { reasoningSpan = ReasoningSpan(duration: time) }
        followUps = stored.followUps
        metadata = stored.metadata
    }

    // MARK: Derived state

    /// Whether the backend is still streaming.
    public var isStreaming: Bool { ending == nil }
    /// True while the backend streams or the pacer still animates: the answer still looks "in progress".
    public var isEffectivelySearching: Bool { isStreaming || isAnimating }
    /// Whether to show the actions row (copy, share, retry…): only once both the backend and the
    /// animation are done.
    public var showsActions: Bool { !isEffectivelySearching }
    /// Whether ``frame(now:)`` has work to do: text to reveal, or a banner waiting for its time.
    public var needsFrames: Bool {
        isAnimating || !unstampedConnectionUpdates.isEmpty || !unstampedSpanUpdates.isEmpty
            || bannerState.nextDeadline != nil
    }

    // MARK: Frames

    /// Advances the display to the frame at `now` (any monotonic clock, from a fixed origin).
    /// Returns whether anything visible changed.
    @discardableResult
    public func frame(now: Duration) -> Bool {
        var bannerChanged = false
        for update in unstampedConnectionUpdates {
            bannerChanged = bannerState.apply(update, now: now) || bannerChanged
        }
        unstampedConnectionUpdates.removeAll()
        var spanChanged = false
        for update in unstampedSpanUpdates { spanChanged = reasoningSpan.note(update, at: now) || spanChanged }
        unstampedSpanUpdates.removeAll()
        bannerChanged = bannerState.tick(now: now) || bannerChanged
        if bannerChanged { banner = bannerState.banner }
        let update = pacer.advance(to: now)
        let textChanged = update.changed ? showRevealedText() : finishDocumentIfDone()
        if bannerChanged || textChanged || spanChanged { changed() }
        return bannerChanged || textChanged || spanChanged
    }

    /// Shows everything received at once (the reader tapped to skip the animation).
    public func revealAll() {
        pacer.stop()
        showRevealedText()
        changed()
    }

    /// Moves the newly revealed text into ``visibleText`` and the markdown document.
    /// Returns whether anything changed.
    @discardableResult
    func showRevealedText() -> Bool {
        let end = pacer.visibleEndIndex
        let utf8 = pacer.text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: shownUTF8)
        var changed = false
        if start < end {
            // Scalar view: the start may be inside a cluster that a late combining mark extended.
            let added = Substring(pacer.text.unicodeScalars[start..<end])
            markdown.append(added)
            withMutation(keyPath: \.visibleText) {
                shownUTF8 = utf8.distance(from: utf8.startIndex, to: end)
            }
            changed = true
        }
        isAnimating = pacer.visibleScalarCount < pacer.receivedScalarCount
        if finishDocumentIfDone() { return true }
        if changed { publishDocument(markdown.committed + markdown.tail) }
        return changed
    }

    /// Once the backend and the animation are both done, replaces the document with the final tree.
    func finishDocumentIfDone() -> Bool {
        guard !isDocumentFinished, ending != nil, !isAnimating else { return false }
        isDocumentFinished = true
        let tree = markdown.finish()
        publishDocument(tree.blocks, committed: tree.blocks.count)
        return true
    }

    private func publishDocument(_ blocks: [Block], committed: Int? = nil) {
        committedBlockCount = committed ?? markdown.committed.count
        document = MarkdownTree(blocks: blocks)
    }
}
