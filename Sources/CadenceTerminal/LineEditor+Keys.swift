/// Keys and display of the input line.
extension LineEditor {
    /// Applies an editing key. Returns `false` for keys the editor does not handle (Enter, page
    /// keys, Ctrl-C…), which the caller decides about.
    ///
    /// Up and down browse the history here; a screen that also scrolls with them decides first
    /// (see ``TerminalChatApp``).
    ///
    /// ```swift
    /// if !editor.handle(key) { handleCommand(key) }
    /// ```
    @discardableResult
    public mutating func handle(_ key: KeyEvent) -> Bool {
        switch key {
        case .text(let typed), .paste(let typed): insert(typed)
        case .backspace: backspace()
        case .delete: deleteForward()
        case .control("d") where !isEmpty: deleteForward()
        case .left, .control("b"): moveLeft()
        case .right, .control("f"): moveRight()
        case .home, .control("a"): moveToStart()
        case .end, .control("e"): moveToEnd()
        case .control("u"): deleteToStart()
        case .control("k"): deleteToEnd()
        case .control("w"): deleteWordBackward()
        case .up, .control("p"): historyPrevious()
        case .down, .control("n"): historyNext()
        default: return false
        }
        return true
    }

    /// What to show in `width` columns: the slice of the line around the cursor, and the cursor's
    /// column in it. A line longer than the width scrolls so the cursor stays visible; wide
    /// characters take two columns and are never cut in half.
    ///
    /// ```swift
    /// let (visible, column) = editor.display(width: cols - 2)
    /// row = "› " + visible; cursorColumn = 2 + column
    /// ```
    public func display(width: Int) -> (text: String, cursorColumn: Int) {
        let width = max(width, 2)
        let widths = characters.map(DisplayWidth.of)
        // The cursor needs a column of its own after the text.
        let beforeCursor = widths[..<cursor].reduce(0, +)
        var start = 0
        var startColumn = 0
        if beforeCursor >= width {
            // Scroll so that the cursor sits on the last column.
            while beforeCursor - startColumn >= width {
                startColumn += widths[start]
                start += 1
            }
        }
        var visible = ""
        var used = 0
        var index = start
        while index < characters.count, used + widths[index] <= width {
            visible.append(characters[index])
            used += widths[index]
            index += 1
        }
        return (visible, beforeCursor - startColumn)
    }
}
