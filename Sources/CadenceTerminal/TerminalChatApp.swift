public import CadenceCore
public import CadenceUI

/// The full-screen chat: glues a `ChatViewModel` to a terminal. Keys go through ``KeyDecoder``
/// and ``LineEditor``; about 60 times a second it advances the answers (`chat.frame()`), reads again
/// only the answers whose `AnswerViewModel/version` changed, lays out only those exchanges again
/// (``TranscriptLayout``), composes the screen (``Screen``, ``TerminalViewState``) and writes only
/// the rows that changed (``ScreenDiff``). A frame in which nothing changed costs one version check
/// per answer, whatever the length of the transcript. When nothing can change by itself (no answer
/// streams or animates, no scroll or key timeout is pending) the app sleeps until the next key or
/// resize: an idle chat left open costs no wake-ups.
///
/// Keys: Enter sends the line; Ctrl-C cancels the streaming answer (keeping its text), stops an
/// animation still running, or, when nothing is going on, leaves; Ctrl-D on an empty line leaves;
/// PgUp/PgDn, the mouse wheel, and ↑/↓ on an empty line scroll; End follows the bottom again;
/// Ctrl-L redraws everything; ↑/↓ with text, Ctrl-P and Ctrl-N browse the history.
///
/// ```swift
/// let chat = ChatViewModel(clock: ContinuousClock(), open: ChatViewModel.source { request in
///     AnswerStream(request: request, transport: SSETransport(baseURL: url)) })
/// let app = TerminalChatApp(chat: chat, terminal: RawTerminal(), initialQuestion: "What is SSE?")
/// app.onAnswerFinished = { answer in store.save(answer) }
/// let reason = try await app.run(clock: ContinuousClock())
/// ```
@MainActor
public final class TerminalChatApp {
    public let chat: ChatViewModel
    /// Called with each question sent (for a history file).
    public var onQuestion: (String) -> Void = { _ in }
    /// Called once per answer when it ends (completed, failed or cancelled), to save it.
    public var onAnswerFinished: (AnswerViewModel) -> Void = { _ in }
    /// How a failed answer's reason reads on screen: by default the library's
    /// `AnswerFailure.message`; a command can word it in its own options' terms.
    public var describeFailure: (AnswerFailure) -> String = \.message

    let terminal: any TerminalDevice
    let initialQuestion: String?
    let exitPolicy: ExitPolicy
    /// How long a lone `ESC` waits for the rest of a sequence before it counts as the Escape key.
    let escapeTimeout: Duration

    var decoder = KeyDecoder()
    var editor: LineEditor
    var view = TerminalViewState()
    var layout: TranscriptLayout
    let screen: Screen
    var size = TerminalSize(rows: 24, columns: 80)
    /// The conversation as last read from the view models.
    var transcript = TranscriptSnapshot(exchanges: [])
    /// What the last layout was made from (the exchanges' versions), to skip it when nothing changed.
    var laidOut: (versions: [Int?], width: Int, spinner: Int)?
    var lines: [String] = []
    var previousFrame: ScreenFrame?
    var lastInput: Duration = .zero
    var now: Duration = .zero
    var reported: Set<String> = []
    var exit: TerminalExit?

    /// - Parameters:
    ///   - chat: the conversation to show and feed.
    ///   - terminal: the terminal to take over (``RawTerminal`` for the real one).
    ///   - initialQuestion: a question to send as soon as the app starts.
    ///   - history: earlier questions, oldest first, for ↑ in the input line.
    ///   - colors: `false` with `NO_COLOR`.
    ///   - exit: when the app leaves by itself (``ExitPolicy/interactive`` never does).
    ///   - escapeTimeout: how long a lone `ESC` waits for the rest of a sequence before it counts as
    ///     the Escape key.
    public init(
        chat: ChatViewModel, terminal: any TerminalDevice, initialQuestion: String? = nil, history: [String] = [],
        colors: Bool = true, exit: ExitPolicy = .interactive, escapeTimeout: Duration = .milliseconds(50)
    ) {
        self.chat = chat
        self.terminal = terminal
        self.initialQuestion = initialQuestion
        self.exitPolicy = exit
        self.escapeTimeout = escapeTimeout
        editor = LineEditor(history: history)
        layout = TranscriptLayout(colors: colors)
        screen = Screen(colors: colors)
    }

    /// Takes over the terminal, runs until the reader leaves, and gives the terminal back (also
    /// when this throws or the task is cancelled). Streaming answers are cancelled on the way out.
    @discardableResult
    public func run<C: Clock>(clock: C, frameInterval: Duration = .milliseconds(16)) async throws -> TerminalExit
    where C.Duration == Duration {
        try terminal.enter()
        defer { terminal.restore() }
        start()
        let inputs = terminal.input()
        // Each input wakes the frame loop if it sleeps; one pending wake-up is enough.
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let reader = Task { [weak self] in
            for await input in inputs {
                self?.handle(input)
                wake.yield()
            }
            self?.exit = self?.exit ?? .inputClosed
            wake.yield()
        }
        defer { reader.cancel() }
        try await FrameTicker(clock: clock, interval: frameInterval).run(wakingOn: wakes, whenIdle: { [self] in isIdle }) {
            [self] now in frame(now: now)
        }
        chat.cancelAll()
        reportFinishedAnswers()
        return exit ?? .inputClosed
    }

    /// Nothing on screen can change before the next input: no answer streams or animates (its
    /// text, spinner or connection banner), and no scroll or lone-`ESC` timeout is pending.
    var isIdle: Bool {
        exit == nil && !chat.isStreaming && !chat.needsFrames && !decoder.hasPendingInput
            && view.pin.nextDeadline == nil
    }

    /// Reads the size and sends the initial question.
    func start() {
        size = terminal.size()
        if let initialQuestion { send(initialQuestion) }
    }

    // MARK: Input

    func handle(_ input: TerminalInput) {
        switch input {
        case .bytes(let bytes):
            lastInput = now
            for key in decoder.feed(bytes) { handle(key) }
        case .resized:
            size = terminal.size()
        }
    }

    func handle(_ key: KeyEvent) {
        switch key {
        case .control("c"): interrupt()
        case .control("d") where editor.isEmpty: exit = .endOfInput
        case .enter:
            if let line = editor.submit() { send(line) }
        case .pageUp: view.pageUp()
        case .pageDown: view.pageDown()
        case .wheelUp: view.scroll(by: -3)
        case .wheelDown: view.scroll(by: 3)
        case .up where editor.isEmpty: view.scroll(by: -1)
        case .down where editor.isEmpty: view.scroll(by: 1)
        case .end:
            editor.moveToEnd()
            view.followBottom(now: now)
        case .control("l"): previousFrame = nil
        default: editor.handle(key)
        }
    }

    func send(_ question: String) {
        chat.send(question)
        view.messageSent(now: now)
        onQuestion(question)
    }

    /// Ctrl-C: cancel what streams, else stop what animates, else leave.
    func interrupt() {
        if chat.isStreaming {
            chat.cancelAll()
        } else if let animating = chat.answers.first(where: \.isAnimating) {
            animating.revealAll()
        } else {
            exit = .interrupted
        }
    }

    // MARK: Frames

    /// One frame at `now`: advances everything and writes what changed. Returns whether to go on.
    func frame(now: Duration) -> Bool {
        self.now = now
        if decoder.hasPendingInput, now - lastInput >= escapeTimeout {
            for key in decoder.flush() { handle(key) }
        }
        chat.frame()
        reportFinishedAnswers()
        if exitPolicy.exitsWhenIdle, exit == nil, !chat.answers.isEmpty,
            !chat.answers.contains(where: \.isEffectivelySearching)
        {
            exit = .idle
        }
        draw()
        return exit == nil
    }

    /// Lays out (when something changed), composes and writes the changed rows.
    func draw() {
        let versions = chat.answers.reversed().map { Optional($0.version) }
        if versions != transcript.versions { transcript = TranscriptSnapshot(chat, reusing: transcript, describingFailure: describeFailure) }
        let spinner = transcript.isRunning ? TranscriptLayout.spinnerFrame(at: now) : 0
        let height = Screen.viewportHeight(for: size)
        if let laidOut, laidOut.versions == versions, laidOut.width == size.columns, laidOut.spinner == spinner {
            if height != view.viewportHeight {
                view.contentChanged(lineCount: lines.count, viewportHeight: height, now: now)
            }
        } else {
            let resized = laidOut.map { $0.width != size.columns } ?? false
            lines = layout.lines(for: transcript, width: size.columns, spinnerFrame: spinner)
            if resized {
                view.resized(lineCount: lines.count, viewportHeight: height)
            } else {
                view.contentChanged(lineCount: lines.count, viewportHeight: height, now: now)
            }
            laidOut = (versions, size.columns, spinner)
        }
        let banner = chat.answers.lazy.compactMap(\.banner).first
        let frame = screen.compose(lines: lines, size: size, view: view, input: editor, banner: banner)
        let bytes = ScreenDiff.update(from: previousFrame, to: frame)
        if !bytes.isEmpty { terminal.write(bytes) }
        previousFrame = frame
    }

    func reportFinishedAnswers() {
        for answer in chat.answers.reversed() where answer.ending != nil && !reported.contains(answer.id) {
            reported.insert(answer.id)
            onAnswerFinished(answer)
        }
    }
}
