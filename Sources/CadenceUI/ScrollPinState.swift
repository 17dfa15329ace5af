/// Whether a chat's scroll view follows new content, as a pure state machine (seed 001).
///
/// - It is **pinned** to the bottom by default and whenever a message is sent.
/// - A user **drag** unpins it: the viewport then stays where the reader put it, and new content
///   is counted for a "↓ N new" pill.
/// - It pins again when the bottom comes within ``Configuration/repinDistance`` (50 pt) or when
///   the pill is tapped.
/// - While pinned, growth asks for a scroll to the bottom at most once per
///   ``Configuration/scrollInterval`` (100 ms): the first growth after a quiet spell scrolls at
///   once, growth inside the interval is folded into one scroll at its end. Never one per character.
///
/// Each event method returns the ``Action``s for the view to perform. Time is a `Duration` on any
/// monotonic clock from any fixed origin; nothing here sleeps. When ``nextDeadline`` is set, call
/// ``tick(now:)`` at or after it (a display-frame callback is enough).
///
/// ```swift
/// var pin = ScrollPinState()
/// pin.contentGrew(by: 1, now: .milliseconds(0))     // [.scrollToBottom]
/// pin.contentGrew(by: 1, now: .milliseconds(30))    // [] (folded)
/// pin.tick(now: .milliseconds(100))                 // [.scrollToBottom]
/// pin.userDragged()                                 // [] (unpinned)
/// pin.contentGrew(by: 2, now: .milliseconds(150))   // [.showPill(2)]
/// pin.pillTapped(now: .milliseconds(400))           // [.hidePill, .scrollToBottom]
/// ```
public struct ScrollPinState: Sendable, Hashable {
    /// Tuning; the defaults are seed 001's.
    ///
    /// ```swift
    /// let pin = ScrollPinState(configuration: .init(repinDistance: 80, scrollInterval: .milliseconds(50)))
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The bottom within this distance (points) counts as "at the bottom" and pins again.
        public var repinDistance: Double
        /// The shortest time between two scroll requests caused by growth.
        public var scrollInterval: Duration

        public init(repinDistance: Double = 50, scrollInterval: Duration = .milliseconds(100)) {
            self.repinDistance = repinDistance
            self.scrollInterval = scrollInterval
        }

        /// 50 pt, 100 ms.
        public static let standard = Configuration()
    }

    /// What the view should do.
    ///
    /// ```swift
    /// for action in pin.tick(now: now) {
    ///     switch action {
    ///     case .scrollToBottom: proxy.scrollTo(bottomID, anchor: .bottom)
    ///     case .showPill(let count): pill = "↓ \(count) new"
    ///     case .hidePill: pill = nil
    ///     }
    /// }
    /// ```
    public enum Action: Sendable, Hashable {
        /// Scroll to the bottom of the content.
        case scrollToBottom
        /// Show (or update) the pill with this much new content below the viewport.
        case showPill(Int)
        /// Hide the pill.
        case hidePill
    }

    public let configuration: Configuration
    /// Whether the view follows new content.
    public private(set) var isPinned = true
    /// New content counted since the view was unpinned; zero while pinned.
    public private(set) var newContentCount = 0
    /// When the last scroll request was made.
    private var lastScroll: Duration?
    /// Growth arrived while pinned that no scroll request has covered yet.
    private var hasPendingScroll = false

    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
    }

    /// Whether the "↓ N new" pill is showing.
    public var isPillVisible: Bool { !isPinned && newContentCount > 0 }

    /// When ``tick(now:)`` will next have something to do, or `nil` if nothing is pending.
    public var nextDeadline: Duration? {
        guard isPinned, hasPendingScroll else { return nil }
        return lastScroll.map { $0 + configuration.scrollInterval }
    }

    // MARK: Events

    /// The user started dragging the scroll view: stop following.
    public mutating func userDragged() -> [Action] {
        isPinned = false
        hasPendingScroll = false
        return []
    }

    /// The scroll view moved; `distance` is from the viewport's bottom to the content's bottom.
    /// Within ``Configuration/repinDistance`` it pins again. Moving away never unpins: only a drag does,
    /// because growth itself moves the bottom away between two scrolls.
    public mutating func scrolled(distanceFromBottom distance: Double) -> [Action] {
        guard !isPinned, distance <= configuration.repinDistance else { return [] }
        return pin()
    }

    /// Content grew. `amount` is what the pill counts (new blocks, lines or answers); pass 0 when
    /// only existing content got longer: a pinned view still follows it, the pill count stays.
    public mutating func contentGrew(by amount: Int = 1, now: Duration) -> [Action] {
        guard isPinned else {
            guard amount > 0 else { return [] }
            newContentCount += amount
            return [.showPill(newContentCount)]
        }
        hasPendingScroll = true
        return tick(now: now)
    }

    /// The pill was tapped: scroll to the bottom now and follow again.
    public mutating func pillTapped(now: Duration) -> [Action] {
        pin() + scroll(at: now)
    }

    /// The user sent a message: always follow again, and show it.
    public mutating func messageSent(now: Duration) -> [Action] {
        pin() + scroll(at: now)
    }

    /// Time passed: emits the scroll that growth inside the last interval is waiting for.
    public mutating func tick(now: Duration) -> [Action] {
        guard isPinned, hasPendingScroll else { return [] }
        if let lastScroll, now < lastScroll + configuration.scrollInterval { return [] }
        return scroll(at: now)
    }

    // MARK: Steps

    private mutating func pin() -> [Action] {
        let wasShowingPill = isPillVisible
        isPinned = true
        newContentCount = 0
        return wasShowingPill ? [.hidePill] : []
    }

    private mutating func scroll(at now: Duration) -> [Action] {
        lastScroll = now
        hasPendingScroll = false
        return [.scrollToBottom]
    }
}
