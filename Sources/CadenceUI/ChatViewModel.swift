public import CadenceCore
public import CadencePacing
public import CadenceStore
import Foundation
public import Observation

/// One conversation on screen: its answers, newest first, each fed by its own stream, plus the
/// scroll pinning of the list.
///
/// - ``send(_:)`` inserts a placeholder answer at the top at once, opens its stream with the
///   conversation so far as history, and routes the stream's updates to that answer;
/// - ``cancel(_:)`` stops one answer and keeps its partial text;
/// - ``retry(_:)`` asks an answer's question again in its place.
///
/// With a `ConversationStore` every answer is recorded as it streams: the question when it is
/// sent, checkpoints of the partial text (at most one per `checkpointInterval`), and how it ended,
/// so a crash loses at most one interval. ``init(clock:restoring:store:scroll:checkpointInterval:pacing:open:)``
/// opens a stored conversation again.
///
/// An answer's stream is tagged when it starts; after a cancel or a retry the old stream's late
/// updates are ignored. Streams come from an injected ``AnswerSource`` (an `AnswerStream` over a
/// transport in the app, a scripted stream in tests), and time from an injected clock.
///
/// ```swift
/// let chat = ChatViewModel(
///     clock: ContinuousClock(),
///     open: ChatViewModel.source { AnswerStream(request: $0, transport: SSETransport(baseURL: url)) })
/// let answer = chat.send("What is SSE?")
/// // once per display frame:
/// if chat.frame() { redraw() }
/// // view side: .onChange(of: chat.scrollRequests) { proxy.scrollTo(bottom) }
/// ```
@Observable @MainActor
public final class ChatViewModel {
    /// Opens the update stream of one answer.
    public typealias AnswerSource = @Sendable (AnswerRequest) -> AsyncStream<AnswerUpdate>

    /// The answers, newest first.
    public private(set) var answers: [AnswerViewModel] = []
    /// How many times the view should have scrolled to the bottom: scroll whenever it changes.
    public private(set) var scrollRequests = 0
    /// The "↓ N new" pill's count, or `nil` while the pill is hidden.
    public private(set) var pillCount: Int?
    /// The conversation's id in the store (or a fresh one when there is no store).
    public let conversationID: String
    /// How new answers reveal their text.
    public let pacing: DisplayPacer.Mode
    /// The last store write that failed, said in one line; `nil` while all is well. Streaming goes
    /// on when the store fails.
    public private(set) var storageError: String?

    @ObservationIgnored private let open: AnswerSource
    @ObservationIgnored private let elapsed: @Sendable () -> Duration
    @ObservationIgnored private let makeID: @MainActor () -> String
    @ObservationIgnored private var scroll: ScrollPinState
    @ObservationIgnored private var streams: [String: (token: Int, task: Task<Void, Never>)] = [:] {
        didSet { if isStreaming != !streams.isEmpty { isStreaming = !streams.isEmpty } }
    }
    @ObservationIgnored private var nextToken = 0
    @ObservationIgnored private let makeRecorder: (@MainActor (String) -> AnswerRecorder)?
    @ObservationIgnored private var recorders: [String: AnswerRecorder] = [:]
    /// Stream and store tasks still running, for ``pendingWrites()``, by the order they started in.
    /// Each leaves when it ends, so a long session keeps only the ones that run.
    @ObservationIgnored private(set) var writers: [Int: Task<Void, Never>] = [:]
    @ObservationIgnored private var writersStarted = 0

    /// - Parameters:
    ///   - clock: the frame and event clock.
    ///   - answers: a conversation opened again: its finished answers, newest first (made with
    ///     ``AnswerViewModel/init(id:query:restoring:)``, so they show fully, without replay).
    ///   - scroll: scroll pinning tuning.
    ///   - store: where answers are recorded, if anywhere; the conversation must exist in it.
    ///   - conversationID: the conversation in `store`; a fresh id by default.
    ///   - checkpointInterval: the shortest time between two checkpoints of a streaming answer.
    ///   - pacing: how new answers reveal their text (adaptive, character, word or instant).
    ///   - makeID: a new answer's identifier; defaults to `"answer-1"`, `"answer-2"`, … without a
    ///     store and to UUIDs with one (answer ids are unique across a store).
    ///   - open: opens the stream of one answer's updates.
    public init<C: Clock>(
        clock: C, answers: [AnswerViewModel] = [], scroll: ScrollPinState.Configuration = .standard,
        store: (any ConversationStore)? = nil, conversationID: String? = nil,
        checkpointInterval: Duration = .milliseconds(250), pacing: DisplayPacer.Mode = .adaptive,
        makeID: (@MainActor () -> String)? = nil, open: @escaping AnswerSource
    ) where C.Duration == Duration {
        self.pacing = pacing
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        self.open = open
        self.answers = answers
        self.scroll = ScrollPinState(configuration: scroll)
        self.conversationID = conversationID ?? UUID().uuidString.lowercased()
        if let store {
            makeRecorder = { id in
                AnswerRecorder(store: store, answerID: id, clock: clock, interval: checkpointInterval)
            }
        } else {
            makeRecorder = nil
        }
        if let makeID {
            self.makeID = makeID
        } else if store != nil {
            self.makeID = { UUID().uuidString.lowercased() }
        } else {
            var counter = 0
            self.makeID = {
                counter += 1
                return "answer-\(counter)"
            }
        }
    }

    /// A stored conversation opened again: its answers show fully at once (no replay), newest
    /// first, and new questions are recorded in the same conversation with its history as context.
    ///
    /// ```swift
    /// let conversation = try await store.conversation(id)!
    /// let chat = ChatViewModel(clock: ContinuousClock(), restoring: conversation, store: store, open: source)
    /// ```
    public convenience init<C: Clock>(
        clock: C, restoring conversation: Conversation, store: any ConversationStore,
        scroll: ScrollPinState.Configuration = .standard, checkpointInterval: Duration = .milliseconds(250),
        pacing: DisplayPacer.Mode = .adaptive, open: @escaping AnswerSource
    ) where C.Duration == Duration {
        self.init(
            clock: clock, answers: conversation.answers.reversed().map(AnswerViewModel.init(restoring:)),
            scroll: scroll, store: store, conversationID: conversation.id, checkpointInterval: checkpointInterval,
            pacing: pacing, open: open)
    }

    /// Waits until every answer that has ended is saved (and every cancel recorded).
    public func pendingWrites() async {
        // Each writer leaves the list as it ends (see `write(_:)`), so this ends once none runs.
        while let oldest = writers.keys.min(), let writer = writers[oldest] {
            await writer.value
        }
    }

    /// Runs `work` as a writer ``pendingWrites()`` waits for; it leaves ``writers`` when it ends.
    /// (The task cannot end before it is in the list: both run on the main actor, and the list is
    /// written before this function returns.)
    @discardableResult
    private func write(_ work: @escaping @MainActor @Sendable () async -> Void) -> Task<Void, Never> {
        writersStarted += 1
        let key = writersStarted
        let task = Task { [weak self] in
            await work()
            self?.writers[key] = nil
        }
        writers[key] = task
        return task
    }

    /// An ``AnswerSource`` over any sequence of updates (such as `AnswerStream`). Ending the
    /// returned stream (a cancel) cancels the iteration of the sequence.
    public nonisolated static func source<S: AsyncSequence & Sendable>(
        _ makeUpdates: @escaping @Sendable (AnswerRequest) -> S
    ) -> AnswerSource where S.Element == AnswerUpdate {
        { request in
            let updates = makeUpdates(request)
            return .producing { emit in
                do {
                    for try await update in updates { guard emit(update) else { return } }
                } catch {}
            }
        }
    }

    /// The answer with this id, if it is in the conversation.
    public func answer(_ id: String) -> AnswerViewModel? {
        answers.first { $0.id == id }
    }

    /// Whether any answer is still streaming (observable: a view can start its frame loop on it).
    public private(set) var isStreaming = false

    /// Whether ``frame()`` has work to do.
    public var needsFrames: Bool { answers.contains { $0.needsFrames } || scroll.nextDeadline != nil }

    // MARK: Answers

    /// Asks a question: its placeholder answer appears first at once, the list follows it, and its
    /// stream starts with every completed earlier exchange as history.
    @discardableResult
    public func send(_ query: String) -> AnswerViewModel {
        var id = makeID()
        while answer(id) != nil { id = makeID() }  // a restored answer may hold a generated id
        let answer = AnswerViewModel(id: id, query: query, pacer: DisplayPacer(mode: pacing))
        let request = AnswerRequest(query: query, history: history(olderThan: 0))
        answers.insert(answer, at: 0)
        start(answer, request)
        perform(scroll.messageSent(now: elapsed()))
        return answer
    }

    /// Stops one answer's stream; the answer keeps the text it had, and ends cancelled.
    public func cancel(_ id: String) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        stream.task.cancel()
        guard let answer = answer(id) else { return }
        let update = AnswerUpdate.cancelled(partialText: answer.text)
        answer.apply(update, at: elapsed())
        if let recorder = recorders[id] {
            write { [weak self] in await self?.record(update, with: recorder) }
        }
    }

    /// Stops every stream (leaving the conversation), keeping partial texts.
    public func cancelAll() {
        for id in Array(streams.keys) { cancel(id) }
    }

    /// Asks an answer's question again, in the same place, with the same history as before.
    /// Returns the new answer, or `nil` for an unknown id.
    @discardableResult
    public func retry(_ id: String) -> AnswerViewModel? {
        guard let index = answers.firstIndex(where: { $0.id == id }) else { return nil }
        streams.removeValue(forKey: id)?.task.cancel()
        let fresh = AnswerViewModel(id: id, query: answers[index].query, pacer: DisplayPacer(mode: pacing))
        answers[index] = fresh
        start(fresh, AnswerRequest(query: fresh.query, history: history(olderThan: index + 1)))
        return fresh
    }

    /// The completed exchanges from `index` on (older answers), oldest first, as chat turns.
    private func history(olderThan index: Int) -> [ChatTurn] {
        answers[index...].reversed().flatMap { answer -> [ChatTurn] in
            guard case .completed = answer.ending else { return [] }
            return [ChatTurn(role: "user", content: answer.query), ChatTurn(role: "assistant", content: answer.text)]
        }
    }

    private func start(_ answer: AnswerViewModel, _ request: AnswerRequest) {
        nextToken += 1
        let token = nextToken
        let id = answer.id
        let updates = open(request)
        let recorder = makeRecorder?(id)
        recorders[id] = recorder
        let conversationID = conversationID
        let task = write { [weak self] in
            if let recorder {
                do {
                    try await recorder.begin(in: conversationID, query: request.query)
                } catch {
                    self?.storageError = "\(error)"
                }
            }
            for await update in updates {
                guard let self, self.streams[id]?.token == token else { return }
                self.route(update, to: id)
                if let recorder { await self.record(update, with: recorder) }
                if update.isTerminal { return }  // nothing follows an answer's end; stop reading
            }
        }
        streams[id] = (token, task)
    }

    private func record(_ update: AnswerUpdate, with recorder: AnswerRecorder) async {
        do {
            try await recorder.record(update)
        } catch {
            storageError = "\(error)"
        }
        if update.isTerminal, recorders[recorder.answerID] === recorder { recorders[recorder.answerID] = nil }
    }

    private func route(_ update: AnswerUpdate, to id: String) {
        answer(id)?.apply(update, at: elapsed())
        if update.isTerminal { streams[id] = nil }
    }

    // MARK: Frames and scrolling

    /// Advances every animating answer to the current frame and follows growth. Returns whether
    /// anything visible changed.
    @discardableResult
    public func frame() -> Bool {
        let now = elapsed()
        var changed = false
        var newBlocks = 0
        for answer in answers where answer.needsFrames {
            let blocksBefore = answer.document.blocks.count
            guard answer.frame(now: now) else { continue }
            changed = true
            newBlocks += max(0, answer.document.blocks.count - blocksBefore)
        }
        if changed { perform(scroll.contentGrew(by: newBlocks, now: now)) }
        perform(scroll.tick(now: now))
        return changed
    }

    /// The user started dragging the list.
    public func userDragged() { perform(scroll.userDragged()) }

    /// The list moved; `distance` is from the viewport's bottom to the content's bottom.
    public func scrolled(distanceFromBottom distance: Double) {
        perform(scroll.scrolled(distanceFromBottom: distance))
    }

    /// The "↓ N new" pill was tapped.
    public func pillTapped() { perform(scroll.pillTapped(now: elapsed())) }

    /// Whether the list follows new content.
    public var isPinned: Bool { scroll.isPinned }

    private func perform(_ actions: [ScrollPinState.Action]) {
        for action in actions {
            switch action {
            case .scrollToBottom: scrollRequests += 1
            case .showPill(let count): pillCount = count
            case .hidePill: pillCount = nil
            }
        }
    }
}
