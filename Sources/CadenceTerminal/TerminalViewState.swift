public import CadenceUI

/// Where the transcript viewport is, in lines: pinned to the bottom (following new text) or left
/// where the reader scrolled it, with `ScrollPinState`'s rules.
///
/// - Pinned, the viewport shows the last lines, whatever is added.
/// - Scrolling up (page keys, arrows on an empty input line, the mouse wheel) unpins it: the top
///   line then stays put while text arrives below, and new lines are counted for the
///   "↓ N new lines" indicator (``newLineCount``).
/// - Scrolling back to the bottom, End (``followBottom(now:)``) or sending a message pins it again.
///
/// ```swift
/// var view = TerminalViewState()
/// view.contentChanged(lineCount: 100, viewportHeight: 20, now: .zero)   // shows lines 80..<100
/// view.pageUp()                                                         // unpinned, top line 61
/// view.contentChanged(lineCount: 104, viewportHeight: 20, now: .zero)   // still 61; 4 new lines
/// view.followBottom(now: .zero)                                         // pinned, shows 84..<104
/// ```
public struct TerminalViewState: Sendable, Hashable {
    /// Pinning and the new-content count; re-pins only at the very bottom (distance 0).
    public private(set) var pin = ScrollPinState(configuration: .init(repinDistance: 0, scrollInterval: .zero))
    /// The top line while unpinned.
    private var unpinnedTop = 0
    /// How many lines the transcript has.
    public private(set) var lineCount = 0
    /// How many transcript lines the viewport shows.
    public private(set) var viewportHeight = 0

    public init() {}

    public var isPinned: Bool { pin.isPinned }
    /// Lines added below since the view was unpinned; zero while pinned.
    public var newLineCount: Int { pin.newContentCount }
    /// The highest top line: the one that shows the last line at the bottom.
    public var maximumTop: Int { max(lineCount - viewportHeight, 0) }
    /// The index of the first line shown.
    public var topLine: Int { isPinned ? maximumTop : min(unpinnedTop, maximumTop) }
    /// The indexes of the lines shown.
    public var visibleRange: Range<Int> { topLine..<min(topLine + viewportHeight, lineCount) }

    // MARK: Content

    /// The transcript now has `lineCount` lines (it grew, or its open tail was re-rendered).
    /// Growth while unpinned is counted; the top line does not move.
    public mutating func contentChanged(lineCount: Int, viewportHeight: Int, now: Duration) {
        let growth = lineCount - self.lineCount
        self.lineCount = max(lineCount, 0)
        self.viewportHeight = max(viewportHeight, 0)
        _ = pin.contentGrew(by: isPinned ? 0 : max(growth, 0), now: now)
        unpinnedTop = min(unpinnedTop, maximumTop)
    }

    /// The terminal was resized and the transcript re-wrapped to `lineCount` lines: an unpinned
    /// view keeps its place in proportion; re-wrapping adds no "new" lines.
    public mutating func resized(lineCount: Int, viewportHeight: Int) {
        if !isPinned, self.lineCount > 0 {
            unpinnedTop = Int((Double(unpinnedTop) * Double(lineCount) / Double(self.lineCount)).rounded())
        }
        self.lineCount = max(lineCount, 0)
        self.viewportHeight = max(viewportHeight, 0)
        unpinnedTop = min(unpinnedTop, maximumTop)
    }

    // MARK: Reader

    /// Moves the viewport by `delta` lines (negative: up, towards older text). Moving up unpins;
    /// reaching the bottom pins again.
    public mutating func scroll(by delta: Int) {
        guard delta != 0 else { return }
        if isPinned {
            guard delta < 0, maximumTop > 0 else { return }
            unpinnedTop = maximumTop
            _ = pin.userDragged()
        }
        unpinnedTop = min(max(unpinnedTop + delta, 0), maximumTop)
        if unpinnedTop >= maximumTop { _ = pin.scrolled(distanceFromBottom: 0) }
    }

    /// Up one screen, keeping one line of context.
    public mutating func pageUp() { scroll(by: -max(viewportHeight - 1, 1)) }
    /// Down one screen, keeping one line of context.
    public mutating func pageDown() { scroll(by: max(viewportHeight - 1, 1)) }

    /// End: back to the bottom, following again.
    public mutating func followBottom(now: Duration) { _ = pin.pillTapped(now: now) }

    /// A message was sent: follow again.
    public mutating func messageSent(now: Duration) { _ = pin.messageSent(now: now) }
}
