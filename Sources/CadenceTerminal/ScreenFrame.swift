/// One full screen: every row's text (with escape codes, at most the terminal's width) and where
/// the cursor stands. ``ScreenDiff`` turns two of them into the bytes that change the first into
/// the second.
///
/// ```swift
/// let frame = ScreenFrame(size: TerminalSize(rows: 2, columns: 20), rows: ["hello", "› "], cursorRow: 1, cursorColumn: 2)
/// ```
public struct ScreenFrame: Sendable, Hashable {
    public var size: TerminalSize
    /// One string per screen row, top first: `size.rows` of them.
    public var rows: [String]
    /// The cursor's row and column, from 0.
    public var cursorRow: Int
    public var cursorColumn: Int

    public init(size: TerminalSize, rows: [String], cursorRow: Int, cursorColumn: Int) {
        self.size = size
        self.rows = rows
        self.cursorRow = cursorRow
        self.cursorColumn = cursorColumn
    }

    /// The rows without escape codes (for tests and screen captures).
    public var plainRows: [String] { rows.map(ScreenFrame.plain) }

    /// `line` without escape codes.
    public static func plain(_ line: String) -> String {
        var out = ""
        DisplayWidth.forEachVisible(line) { character, _ in out.append(character) }
        return out
    }
}
