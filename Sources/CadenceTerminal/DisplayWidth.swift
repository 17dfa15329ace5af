import CadenceMarkdown

/// Terminal column widths: 2 for East Asian wide characters and emoji, 0 for combining marks,
/// and helpers for lines that carry SGR escape codes (`ESC [ … m`), which take no columns.
///
/// The column rules are CadenceMarkdown's ``TerminalColumns``, so the input line, the transcript
/// and the markdown renderer measure alike.
///
/// ```swift
/// DisplayWidth.of("日本")                        // 4
/// DisplayWidth.fit("\u{1B}[1mbold\u{1B}[0m", to: 2) // "\u{1B}[1mbo\u{1B}[0m"
/// ```
enum DisplayWidth {
    static func of(_ character: Character) -> Int { TerminalColumns.width(of: character) }

    /// Columns of plain text (no escape codes).
    static func of(_ text: some StringProtocol) -> Int { TerminalColumns.width(of: text) }

    /// Columns of a line that may hold SGR escape codes.
    static func visible(_ line: String) -> Int {
        var width = 0
        forEachVisible(line) { character, _ in width += of(character) }
        return width
    }

    /// The line cut to at most `width` columns, escape codes kept; a cut styled line is reset.
    static func fit(_ line: String, to width: Int) -> String {
        var used = 0
        var cutAt: String.Index?
        forEachVisible(line) { character, index in
            guard cutAt == nil else { return }
            let w = of(character)
            if used + w > width {
                cutAt = index
            } else {
                used += w
            }
        }
        guard let cutAt else { return line }
        let head = String(line[..<cutAt])
        return head.contains("\u{1B}") ? head + "\u{1B}[0m" : head
    }

    /// Calls `body` with each character outside escape sequences, and its index.
    static func forEachVisible(_ line: String, _ body: (Character, String.Index) -> Void) {
        var inEscape = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if inEscape {
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" {
                    inEscape = false
                }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                body(character, index)
            }
            index = line.index(after: index)
        }
    }

    /// Plain text broken into lines of at most `width` columns at spaces (a tab is one); a word
    /// longer than a line is cut. Leading spaces are kept; lines after the first start with
    /// `indent`. Control characters show as symbols (``TerminalSanitizer``): the text may come from
    /// a server.
    static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        let width = max(width, 1)
        var text = TerminalSanitizer.printable(text)
        if text.utf8.contains(0x09) { text = String(text.map { $0 == "\t" ? " " : $0 }) }
        let leading = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var line = leading
        var lineWidth = of(leading)
        var isFresh = true  // nothing but the indentation on the line yet
        func newLine() {
            lines.append(line)
            line = indent
            lineWidth = of(indent)
            isFresh = true
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = of(word)
            if !isFresh && lineWidth + 1 + wordWidth > width { newLine() }
            if !isFresh {
                line += " "
                lineWidth += 1
            }
            for character in word {
                let w = of(character)
                if lineWidth + w > width && !isFresh { newLine() }
                line.append(character)
                lineWidth += w
                isFresh = false
            }
        }
        lines.append(line)
        return lines
    }
}
