/// Just enough of markdown's structure to know, byte by byte as text streams in, where it is code:
/// code spans, code fences and backslash escapes. It sees one byte at a time (the marks are ASCII;
/// the bytes of other characters never match them) and never looks back.
///
/// The parser reads the same rules but settles a code span or a fence only once its line or block
/// is complete; a reader that must decide about each byte as it arrives (research's
/// `CitationProcessor`, which sends a byte on or holds it) uses this byte-at-a-time subset instead.
package struct StreamingCodeContext: Sendable {
    private enum Mode: Sendable {
        case prose
        case codeSpan(ticks: Int)
        case fence(Fence)
    }

    private struct Fence: Sendable {
        var mark: UInt8
        var length: Int
        var line: FenceLine = .other
    }

    /// Where a line inside a fence is, on its way to maybe closing the fence.
    private enum FenceLine: Sendable {
        case lead(Int), run(Int), trail(Int), other
    }

    private struct Run: Sendable {
        var mark: UInt8
        var length: Int
        var atLineStart: Bool
    }

    private var mode = Mode.prose
    private var run: Run?
    /// Spaces at the start of the current line, or `nil` once something else was on it.
    private var lineLead: Int? = 0
    /// The previous character was an unescaped backslash.
    package var escaped = false

    package init() {}

    /// At a line's start (up to three spaces in), where fences and reference definitions begin.
    package var atLineStart: Bool { lineLead.map { $0 <= 3 } ?? false }
    /// Nothing but spaces on the current line so far.
    package var lineIsBlank: Bool { lineLead != nil }
    package var inFence: Bool { if case .fence = mode { true } else { false } }
    package var inCodeSpan: Bool { if case .codeSpan = mode { true } else { false } }

    /// Whether `scalar` ends a run of backticks or tildes being counted.
    package func endsRun(before scalar: UInt8) -> Bool {
        run.map { $0.mark != scalar } ?? false
    }

    /// Counts a backtick, or a tilde of a possible fence; `false` for any other character.
    package mutating func startsOrExtendsRun(_ scalar: UInt8) -> Bool {
        guard scalar == .backtick || (scalar == .tilde && (run != nil || atLineStart)) else { return false }
        if run == nil { run = Run(mark: scalar, length: 0, atLineStart: atLineStart) }
        run!.length += 1
        return true
    }

    /// The run of backticks or tildes ended: it may open a fence, or open or close a code span.
    /// Returns `true` when a fence opened (the prose before it has ended).
    @discardableResult
    package mutating func endRun() -> Bool {
        guard let run else { return false }
        self.run = nil
        if run.atLineStart && run.length >= 3 {
            mode = .fence(Fence(mark: run.mark, length: run.length))
            return true
        }
        guard run.mark == .backtick else { return false }
        switch mode {
        case .codeSpan(let ticks) where ticks == run.length: mode = .prose
        case .prose: mode = .codeSpan(ticks: run.length)
        default: break
        }
        return false
    }

    /// A blank line ends the paragraph, and with it a code span that never closed.
    package mutating func closeCodeSpan() { mode = .prose }

    /// One byte inside a fence: a line of the fence's mark, at least as long, closes it.
    package mutating func fence(_ scalar: UInt8) {
        guard case .fence(var fence) = mode else { return }
        switch (fence.line, scalar) {
        case (.run(let n), .lineFeed) where n >= fence.length, (.trail(let n), .lineFeed) where n >= fence.length:
            mode = .prose
            return
        case (_, .lineFeed): fence.line = .lead(0)
        case (.lead(let n), .space) where n < 3: fence.line = .lead(n + 1)
        case (.lead, _) where scalar == fence.mark: fence.line = .run(1)
        case (.run(let n), _) where scalar == fence.mark: fence.line = .run(n + 1)
        case (.run(let n), .space), (.run(let n), .tab), (.trail(let n), .space), (.trail(let n), .tab): fence.line = .trail(n)
        default: fence.line = .other
        }
        mode = .fence(fence)
    }

    /// A space that is held, not yet sent, still counts towards the line's indentation.
    package mutating func sawSpace() { lineLead? += 1 }
    /// A character that is held, not yet sent (an opening bracket), ends the line's indentation.
    package mutating func sawContent() { lineLead = nil }

    /// A character was sent.
    package mutating func sent(_ scalar: UInt8) {
        switch scalar {
        case .lineFeed: lineLead = 0
        case .space, .tab: lineLead? += 1
        default: lineLead = nil
        }
    }
}

/// The ASCII marks markdown is read by, as bytes.
extension UInt8 {
    package static let lineFeed = UInt8(ascii: "\n")
    package static let space = UInt8(ascii: " ")
    package static let tab = UInt8(ascii: "\t")
    package static let backtick = UInt8(ascii: "`")
    package static let tilde = UInt8(ascii: "~")
    package static let backslash = UInt8(ascii: "\\")
    package static let openBracket = UInt8(ascii: "[")
    package static let closeBracket = UInt8(ascii: "]")

    package var isSpaceOrTab: Bool { self == .space || self == .tab }
    /// ASCII whitespace (other whitespace is rare in prose and counts as a word character here).
    package var isWhitespace: Bool { isSpaceOrTab || self == .lineFeed || self == 0x0D }
}
