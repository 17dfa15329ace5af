/// Just enough of markdown's structure to know where brackets are text: code spans, code fences
/// and backslash escapes. It sees one character at a time and never looks back.
struct MarkdownContext: Sendable {
    private enum Mode: Sendable {
        case prose
        case codeSpan(ticks: Int)
        case fence(Fence)
    }

    private struct Fence: Sendable {
        var mark: Unicode.Scalar
        var length: Int
        var line: FenceLine = .other
    }

    /// Where a line inside a fence is, on its way to maybe closing the fence.
    private enum FenceLine: Sendable {
        case lead(Int), run(Int), trail(Int), other
    }

    private struct Run: Sendable {
        var mark: Unicode.Scalar
        var length: Int
        var atLineStart: Bool
    }

    private var mode = Mode.prose
    private var run: Run?
    /// Spaces at the start of the current line, or `nil` once something else was on it.
    private var lineLead: Int? = 0
    /// The previous character was an unescaped backslash.
    var escaped = false

    /// At a line's start (up to three spaces in), where fences and reference definitions begin.
    var atLineStart: Bool { lineLead.map { $0 <= 3 } ?? false }
    /// Nothing but spaces on the current line so far.
    var lineIsBlank: Bool { lineLead != nil }
    var inFence: Bool { if case .fence = mode { true } else { false } }
    var inCodeSpan: Bool { if case .codeSpan = mode { true } else { false } }

    /// Whether `scalar` ends a run of backticks or tildes being counted.
    func endsRun(before scalar: Unicode.Scalar) -> Bool {
        run.map { $0.mark != scalar } ?? false
    }

    /// Counts a backtick, or a tilde of a possible fence; `false` for any other character.
    mutating func startsOrExtendsRun(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar == "`" || (scalar == "~" && (run != nil || atLineStart)) else { return false }
        if run == nil { run = Run(mark: scalar, length: 0, atLineStart: atLineStart) }
        run!.length += 1
        return true
    }

    /// The run of backticks or tildes ended: it may open a fence, or open or close a code span.
    /// Returns `true` when a fence opened (the prose before it has ended).
    @discardableResult
    mutating func endRun() -> Bool {
        guard let run else { return false }
        self.run = nil
        if run.atLineStart && run.length >= 3 {
            mode = .fence(Fence(mark: run.mark, length: run.length))
            return true
        }
        guard run.mark == "`" else { return false }
        switch mode {
        case .codeSpan(let ticks) where ticks == run.length: mode = .prose
        case .prose: mode = .codeSpan(ticks: run.length)
        default: break
        }
        return false
    }

    /// A blank line ends the paragraph, and with it a code span that never closed.
    mutating func closeCodeSpan() { mode = .prose }

    /// One character inside a fence: a line of the fence's mark, at least as long, closes it.
    mutating func fence(_ scalar: Unicode.Scalar) {
        guard case .fence(var fence) = mode else { return }
        switch (fence.line, scalar) {
        case (.run(let n), "\n") where n >= fence.length, (.trail(let n), "\n") where n >= fence.length:
            mode = .prose
            return
        case (_, "\n"): fence.line = .lead(0)
        case (.lead(let n), " ") where n < 3: fence.line = .lead(n + 1)
        case (.lead, _) where scalar == fence.mark: fence.line = .run(1)
        case (.run(let n), _) where scalar == fence.mark: fence.line = .run(n + 1)
        case (.run(let n), " "), (.run(let n), "\t"), (.trail(let n), " "), (.trail(let n), "\t"): fence.line = .trail(n)
        default: fence.line = .other
        }
        mode = .fence(fence)
    }

    /// A space that is held, not yet sent, still counts towards the line's indentation.
    mutating func sawSpace() { lineLead? += 1 }
    /// A character that is held, not yet sent (an opening bracket), ends the line's indentation.
    mutating func sawContent() { lineLead = nil }

    /// A character was sent.
    mutating func sent(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "\n": lineLead = 0
        case " ", "\t": lineLead? += 1
        default: lineLead = nil
        }
    }
}
