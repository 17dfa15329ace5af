/// The display buffer between network and screen: it decides, once per frame, how much of
/// the text received so far is visible.
///
/// `DisplayPacer` is a pure value type driven by the caller's clock; it never sleeps or
/// schedules anything. Feed it text as it arrives, call ``advance(to:)`` once per display
/// frame with the frame time, and redraw only when the returned update says something
/// changed. Each appended chunk costs O(chunk); a frame costs O(units revealed) plus, in the
/// adaptive mode, O(chunks received within the latency budget).
///
/// What it guarantees, in every mode:
/// - the visible text only grows, never runs ahead of what arrived, and never ends inside a
///   grapheme cluster; a last cluster that may still grow (`か` before a voicing mark, `👩` before
///   a skin tone or `‍💻`) waits for the next scalar;
/// - in the adaptive and word modes it ends between whole words in scripts that space their
///   words, after whole lines inside fenced code blocks, and between ideographs, kana and
///   Hangul syllables or grapheme clusters in scripts that do not; citation markers like `[1][2]`
///   stay whole;
/// - the exceptions: after `Configuration.heldUnitRelease` (3 s) of network silence the held tail
///   is shown, even a partial word or a cluster that may still grow (never a visibly unfinished
///   one); a held word ending in punctuation is shown after `finishedWordRelease`; and, only if
///   you opt in with `Configuration.codeTokenRelease`, a slow code line is shown token by token;
/// - adaptive mode: each chunk is on screen within `Configuration.latencyBudget` of its arrival,
///   as far as its unit and the update limit allow, and a burst is spread over the stream's usual
///   gap instead of shown at once;
/// - at most one visible change per frame, none when nothing changed, and at most
///   `maximumUpdatesPerSecond` (only the very last update and ``stop()`` may exceed it);
/// - after ``finish()`` the rest appears within `Configuration.endDrain`;
/// - ``stop()`` shows everything at once, and a pacer made with ``init(completedText:mode:configuration:)``
///   shows a stored answer fully, without replaying it.
///
/// ```swift
/// var pacer = DisplayPacer()                              // adaptive: whole words, steady
/// pacer.append("Hello, wor")                              // network chunk
/// let update = pacer.advance(to: .milliseconds(16))       // display frame
/// if update.changed { label.text = String(pacer.visibleText) }   // "Hello, "
/// pacer.append("ld!")
/// pacer.finish()
/// _ = pacer.advance(to: .milliseconds(33))                // "Hello, world!"
/// ```
///
/// Pacers are independent values: run one per streaming answer, side by side.
public struct DisplayPacer: Sendable {
    /// How this pacer reveals text.
    public let mode: Mode
    /// The tuning in force.
    public let configuration: Configuration

    var segmenter: UnitSegmenter
    var arrivals: ArrivalEstimator
    var unstampedScalars = 0
    /// Adaptive mode: where each chunk not yet passed by the head ends, and when it arrived.
    var arrivalDeadlines = ArrivalDeadlines()
    var visible = UnitBoundary.start
    /// Adaptive mode: the fractional reveal head, in scalars.
    var head = 0.0
    /// Typewriter and word modes: the unit the schedule has reached, and when the next is due.
    var scheduled = UnitBoundary.start
    var scheduleCursor: Double?
    var isScheduleWaiting = false
    var lastFrame: Double?
    var lastChange: Double?
    var updateCredit = 1.0
    var endDrain: (deadline: Double, rate: Double)?
    var isStopped = false

    /// A pacer for a stream that is about to start.
    public init(mode: Mode = .adaptive, configuration: Configuration = .standard) {
        self.mode = mode
        self.configuration = configuration
        let granularity: UnitSegmenter.Granularity
        let pauses: UnitSegmenter.Pauses
        switch mode {
        case .adaptive: (granularity, pauses) = (.words, .none)
        case .character: (granularity, pauses) = (.graphemes, .typewriter)
        case .word: (granularity, pauses) = (.wordsAndSpaces, .wordByWord)
        case .instant: (granularity, pauses) = (.graphemes, .none)
        }
        segmenter = UnitSegmenter(
            granularity: granularity,
            pauses: pauses,
            maximumUnitLength: configuration.maximumUnitLength
        )
        arrivals = ArrivalEstimator()
    }

    /// A pacer for an answer that already finished (a stored message, a conversation
    /// opened again): everything is visible at once, nothing is replayed.
    public init(completedText: String, mode: Mode = .adaptive, configuration: Configuration = .standard) {
        self.init(mode: mode, configuration: configuration)
        append(completedText)
        finish()
        showEverything()
    }

    // MARK: Input

    /// Adds a network chunk. Pass its arrival time if known; otherwise the next frame's
    /// time is used.
    public mutating func append(_ chunk: some StringProtocol, at arrival: Duration? = nil) {
        guard !segmenter.isFinished else { return }
        let count = chunk.unicodeScalars.count
        guard count > 0 else { return }
        segmenter.append(chunk)
        if let arrival {
            arrivals.record(scalars: count, at: arrival.milliseconds)
            recordDeadline(at: arrival.milliseconds)
        } else {
            unstampedScalars += count
        }
    }

    /// The stream ended: no more text will come.
    public mutating func finish() {
        segmenter.finish()
        arrivalDeadlines = ArrivalDeadlines()  // the drain after the end does not read them
    }

    /// Keeps the due time of the text received so far, for the adaptive head; only while that
    /// head runs (adaptive mode, not stopped, not finished), so that no other pacer holds one
    /// entry per chunk for the whole answer.
    private mutating func recordDeadline(at time: Double) {
        guard mode == .adaptive, !isStopped, !segmenter.isFinished else { return }
        arrivalDeadlines.record(end: segmenter.receivedScalars, at: time)
    }

    /// Shows everything received at once (the user interrupted the animation); later text,
    /// if any, appears as soon as it arrives.
    public mutating func stop() {
        isStopped = true
        showEverything()
    }

    // MARK: Frames

    /// The result of one frame, made by ``advance(to:)``.
    ///
    /// ```swift
    /// let update = pacer.advance(to: frameTime)
    /// if update.changed { render(pacer.visibleText) }
    /// ```
    public struct Update: Sendable, Hashable {
        /// Visible length in Unicode scalars (`String.unicodeScalars.count` of the visible text).
        public let visibleScalarCount: Int
        /// Whether this frame changed the visible text. Redraw only when it did.
        public let changed: Bool
    }

    /// Advances to the frame at `now` (time on any monotonic clock, from any fixed origin)
    /// and returns what is visible. Call it once per display frame.
    @discardableResult
    public mutating func advance(to now: Duration) -> Update {
        let time = now.milliseconds
        let elapsed = lastFrame.map { max(0, time - $0) } ?? 0
        lastFrame = time
        if unstampedScalars > 0 {
            arrivals.record(scalars: unstampedScalars, at: time)
            recordDeadline(at: time)
            unstampedScalars = 0
        }
        let limit = configuration.maximumUpdatesPerSecond
        updateCredit = limit > 0 && limit.isFinite ? min(1, updateCredit + elapsed * limit / 1000) : 1
        let before = visible.scalarOffset

        let target: UnitBoundary?
        if isStopped {
            target = receivedEnd
        } else if segmenter.isFinished {
            target = drainStep(at: time, elapsed: elapsed)
        } else {
            switch mode {
            case .adaptive: target = adaptiveStep(at: time, elapsed: elapsed)
            case .character, .word: target = scheduleStep(at: time)
            case .instant: target = committable(at: time)
            }
        }
        if let target, target.scalarOffset > visible.scalarOffset {
            let isLast = segmenter.isFinished && target.scalarOffset == segmenter.receivedScalars
            if updateCredit >= 1 - 1e-9 || isLast || isStopped {
                updateCredit = max(0, updateCredit - 1)
                reveal(through: target, at: time)
            }
        }
        return Update(visibleScalarCount: visible.scalarOffset, changed: visible.scalarOffset != before)
    }

    /// Advances with the whole text received so far instead of appended chunks. `text`
    /// must extend the text given before; only the new suffix is read (O(new text)).
    @discardableResult
    public mutating func advance(receivedText text: String, isFinished: Bool, to now: Duration) -> Update {
        let known = segmenter.receivedUTF8
        if text.utf8.count > known {
            // Scalar view: a Character-based slice would round a mid-cluster start down.
            let start = text.utf8.index(text.utf8.startIndex, offsetBy: known)
            append(Substring(text.unicodeScalars[start...]))
        }
        if isFinished { finish() }
        return advance(to: now)
    }

    /// ``advance(to:)`` with an instant of any clock whose durations are `Duration`
    /// (`ContinuousClock`, `SuspendingClock`, a test clock).
    @discardableResult
    public mutating func advance<Instant: InstantProtocol>(to instant: Instant, since origin: Instant) -> Update
    where Instant.Duration == Duration {
        advance(to: origin.duration(to: instant))
    }

    // MARK: Output

    /// Everything received so far.
    public var text: String { segmenter.text }
    /// Unicode scalars received so far.
    public var receivedScalarCount: Int { segmenter.receivedScalars }
    /// Visible length in Unicode scalars.
    public var visibleScalarCount: Int { visible.scalarOffset }
    /// Where the visible text ends in ``text``.
    public var visibleEndIndex: String.Index {
        let utf8 = segmenter.text.utf8
        return utf8.index(utf8.startIndex, offsetBy: visible.utf8Offset)
    }
    /// The visible prefix of ``text``.
    public var visibleText: Substring { segmenter.text[..<visibleEndIndex] }
    /// The stream has ended (``finish()`` was called).
    public var isFinished: Bool { segmenter.isFinished }
    /// The stream has ended and all of it is visible: the animation is over.
    public var isComplete: Bool { segmenter.isFinished && visible.scalarOffset == segmenter.receivedScalars }

    // MARK: Shared steps

    var receivedEnd: UnitBoundary {
        UnitBoundary(scalarOffset: segmenter.receivedScalars, utf8Offset: segmenter.receivedUTF8)
    }

    mutating func showEverything() {
        visible = receivedEnd
        scheduled = visible
        head = Double(visible.scalarOffset)
        segmenter.discard(through: visible.scalarOffset)
        arrivalDeadlines = ArrivalDeadlines()  // every one of them is passed
    }

    mutating func reveal(through target: UnitBoundary, at time: Double) {
        visible = target
        lastChange = time
        segmenter.discard(through: target.scalarOffset)
    }
}
