/// The escape codes that turn the screen on the terminal into a new frame, touching only what
/// changed: each changed row is rewritten in place (`ESC [ row ; 1 H`, `ESC [ 2 K`, the row);
/// rows that did not change are not sent. The cursor then goes back to its place in the input
/// line. An identical frame gives the empty string: nothing to write.
///
/// A first frame, a new size (after a resize) or a requested redraw clears the screen and writes
/// every row.
///
/// ```swift
/// let bytes = ScreenDiff.update(from: previousFrame, to: frame)
/// if !bytes.isEmpty { terminal.write(bytes) }
/// previousFrame = frame
/// ```
public enum ScreenDiff {
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"

    /// The bytes from `old` (`nil`: unknown, redraw everything) to `new`.
    public static func update(from old: ScreenFrame?, to new: ScreenFrame) -> String {
        guard let old, old.size == new.size, old.rows.count == new.rows.count else {
            return fullRedraw(new)
        }
        var out = ""
        for (index, row) in new.rows.enumerated() where row != old.rows[index] {
            out += moveTo(row: index, column: 0) + "\u{1B}[2K" + row
        }
        if out.isEmpty {
            guard old.cursorRow != new.cursorRow || old.cursorColumn != new.cursorColumn else { return "" }
            return moveTo(row: new.cursorRow, column: new.cursorColumn)
        }
        return hideCursor + out + moveTo(row: new.cursorRow, column: new.cursorColumn) + showCursor
    }

    /// Clears the screen and writes every row.
    public static func fullRedraw(_ frame: ScreenFrame) -> String {
        var out = hideCursor + "\u{1B}[0m\u{1B}[H\u{1B}[2J"
        for (index, row) in frame.rows.enumerated() where !row.isEmpty {
            out += moveTo(row: index, column: 0) + row
        }
        return out + moveTo(row: frame.cursorRow, column: frame.cursorColumn) + showCursor
    }

    /// `ESC [ row ; column H`, from 0-based coordinates.
    static func moveTo(row: Int, column: Int) -> String {
        "\u{1B}[\(row + 1);\(column + 1)H"
    }
}
