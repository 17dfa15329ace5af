/// The input line at the bottom of the screen, as a value: the text, the cursor, Emacs-style
/// editing keys, and a history of sent lines browsed with up and down.
///
/// Browsing the history keeps the line being typed (the draft): going down past the newest entry
/// brings it back. ``submit()`` returns the trimmed line, records it in the history (not when it is
/// empty or repeats the previous entry) and clears the line.
///
/// ```swift
/// var editor = LineEditor()
/// editor.insert("What is SSE?")
/// editor.handle(.control("a"))      // cursor to the start
/// editor.submit()                   // "What is SSE?"; the line is empty again
/// editor.historyPrevious()          // the line is "What is SSE?" again
/// let (visible, column) = editor.display(width: 40)
/// ```
public struct LineEditor: Sendable, Hashable {
    /// The line, one element per character.
    public private(set) var characters: [Character] = []
    /// The cursor, as an index into ``characters`` (`characters.count` is after the last).
    public private(set) var cursor = 0
    /// Sent lines, oldest first.
    public private(set) var history: [String]
    /// The history entry shown, or `nil` while editing the draft.
    public private(set) var historyIndex: Int?
    /// The line being typed when history browsing began.
    private var draft: [Character] = []

    public init(history: [String] = []) {
        self.history = history
    }

    /// The line's text.
    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    // MARK: Editing

    /// Inserts text at the cursor; line breaks and tabs become spaces, other control characters are dropped.
    public mutating func insert(_ text: String) {
        let cleaned = text.compactMap { character -> Character? in
            if character == "\n" || character == "\r\n" || character == "\t" || character == "\r" { return " " }
            if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F { return nil }
            return character
        }
        characters.insert(contentsOf: cleaned, at: cursor)
        cursor += cleaned.count
    }

    public mutating func moveLeft() { cursor = max(cursor - 1, 0) }
    public mutating func moveRight() { cursor = min(cursor + 1, characters.count) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = characters.count }

    /// Deletes the character before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Ctrl-U: deletes from the start of the line to the cursor.
    public mutating func deleteToStart() {
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Ctrl-K: deletes from the cursor to the end of the line.
    public mutating func deleteToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Ctrl-W: deletes the word before the cursor, and the spaces after it.
    public mutating func deleteWordBackward() {
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Replaces the whole line, the cursor at its end.
    public mutating func setText(_ text: String) {
        characters = []
        cursor = 0
        insert(text)
    }

    // MARK: History

    /// Shows the previous (older) history entry; the first step keeps the draft.
    public mutating func historyPrevious() {
        guard !history.isEmpty else { return }
        let index: Int
        if let current = historyIndex {
            guard current > 0 else { return }
            index = current - 1
        } else {
            draft = characters
            index = history.count - 1
        }
        historyIndex = index
        show(Array(history[index]))
    }

    /// Shows the next (newer) history entry, or the draft after the newest.
    public mutating func historyNext() {
        guard let current = historyIndex else { return }
        if current + 1 < history.count {
            historyIndex = current + 1
            show(Array(history[current + 1]))
        } else {
            historyIndex = nil
            show(draft)
            draft = []
        }
    }

    /// Ends the line: returns it trimmed (or `nil` when blank), records it in the history and
    /// clears the editor.
    public mutating func submit() -> String? {
        let line = text.trimmingSpaces()
        characters = []
        cursor = 0
        historyIndex = nil
        draft = []
        guard !line.isEmpty else { return nil }
        if history.last != line { history.append(line) }
        return line
    }

    private mutating func show(_ line: [Character]) {
        characters = line
        cursor = line.count
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
