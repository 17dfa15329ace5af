public import CadenceUI

/// Composes the full screen from its parts, as a pure function: the transcript viewport on top,
/// a status row (the connection banner, the "↓ N new lines" indicator, or key hints), and the
/// input line at the bottom with the cursor in it.
///
/// ```swift
/// let frame = Screen(colors: true).compose(
///     lines: transcriptLines, size: TerminalSize(rows: 24, columns: 80), view: view, input: editor,
///     banner: chat.answers.first?.banner)
/// terminal.write(ScreenDiff.update(from: previous, to: frame))
/// ```
public struct Screen: Sendable {
    /// The hints shown in the status row when there is nothing else to say.
    public static let defaultHint = "Enter send · PgUp/PgDn scroll · End follow · Ctrl-C cancel/quit"
    /// What the input line starts with.
    public static let prompt = "› "

    public var colors: Bool
    public var hint: String

    public init(colors: Bool = true, hint: String = Screen.defaultHint) {
        self.colors = colors
        self.hint = hint
    }

    /// How many transcript lines fit above the status row and the input line.
    public static func viewportHeight(for size: TerminalSize) -> Int { max(size.rows - 2, 0) }

    public func compose(
        lines: [String], size: TerminalSize, view: TerminalViewState, input: LineEditor,
        banner: ConnectionBannerState.Banner? = nil
    ) -> ScreenFrame {
        let height = Self.viewportHeight(for: size)
        var rows: [String] = []
        rows.reserveCapacity(size.rows)
        let top = min(view.topLine, max(lines.count - height, 0))
        for index in top..<(top + height) {
            rows.append(index < lines.count ? DisplayWidth.fit(lines[index], to: size.columns) : "")
        }
        if size.rows >= 2 { rows.append(statusRow(view: view, banner: banner, width: size.columns)) }
        let style = SGR(colors: colors)
        let promptWidth = DisplayWidth.of(Self.prompt)
        let (visible, column) = input.display(width: size.columns - promptWidth - 1)
        rows.append(DisplayWidth.fit(style.bold(Self.prompt) + visible, to: size.columns))
        return ScreenFrame(
            size: size, rows: rows, cursorRow: size.rows - 1,
            cursorColumn: min(promptWidth + column, size.columns - 1))
    }

    /// A rule with the banner, the new-lines indicator or the hints in it.
    func statusRow(view: TerminalViewState, banner: ConnectionBannerState.Banner?, width: Int) -> String {
        let style = SGR(colors: colors)
        var parts: [String] = []
        switch banner {
        case .reconnecting(let attempt, _)?: parts.append(style.yellow("Reconnecting (attempt \(attempt))…"))
        case .reconnected?: parts.append(style.green("Reconnected"))
        case nil: break
        }
        if !view.isPinned {
            let count = view.newLineCount
            let indicator = count > 0 ? "↓ \(count) new line\(count == 1 ? "" : "s") · End to follow" : "End to follow"
            parts.append(style.reverse(" " + indicator + " "))
        }
        if parts.isEmpty { parts.append(style.dim(hint)) }
        var row = style.dim("─ ") + parts.joined(separator: style.dim(" · ")) + " "
        let used = DisplayWidth.visible(row)
        if used < width { row += style.dim(String(repeating: "─", count: width - used)) }
        return DisplayWidth.fit(row, to: width)
    }
}
