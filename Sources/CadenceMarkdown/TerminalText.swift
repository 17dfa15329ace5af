/// Styled text for the terminal: spans, display widths, wrapping and ANSI escape codes.
struct TerminalStyle: OptionSet, Hashable {
    let rawValue: UInt16
    static let bold = TerminalStyle(rawValue: 1 << 0)
    static let italic = TerminalStyle(rawValue: 1 << 1)
    static let underline = TerminalStyle(rawValue: 1 << 2)
    static let strikethrough = TerminalStyle(rawValue: 1 << 3)
    static let dim = TerminalStyle(rawValue: 1 << 4)
    static let code = TerminalStyle(rawValue: 1 << 5)
    static let link = TerminalStyle(rawValue: 1 << 6)
    static let heading = TerminalStyle(rawValue: 1 << 7)
    static let citation = TerminalStyle(rawValue: 1 << 8)
    static let accent = TerminalStyle(rawValue: 1 << 9)

    /// The SGR parameters for this style.
    var sgr: String {
        var codes: [String] = []
        if contains(.bold) || contains(.heading) { codes.append("1") }
        if contains(.dim) { codes.append("2") }
        if contains(.italic) { codes.append("3") }
        if contains(.underline) || contains(.link) { codes.append("4") }
        if contains(.strikethrough) { codes.append("9") }
        if contains(.code) { codes.append("33") }
        if contains(.link) { codes.append("34") }
        if contains(.heading) { codes.append("35") }
        if contains(.citation) || contains(.accent) { codes.append("36") }
        return codes.joined(separator: ";")
    }
}

/// A run of text in one style.
struct TerminalSpan: Hashable {
    var text: String
    var style: TerminalStyle
}

/// How many terminal columns text takes: 2 for East Asian wide characters and emoji, 0 for
/// combining marks and controls, 1 otherwise. The markdown renderer wraps by these rules, and so
/// should anything laid out beside it.
///
/// ```swift
/// TerminalColumns.width(of: "日本")   // 4
/// TerminalColumns.width(of: "e\u{301}") // 1
/// ```
public enum TerminalColumns {
    /// Columns a character takes.
    public static func width(of character: Character) -> Int {
        var result = 0
        for scalar in character.unicodeScalars {
            let w = width(of: scalar)
            if scalar.value == 0xFE0F { return 2 }
            if result == 0 { result = w }
        }
        return result
    }

    /// Columns a scalar takes on its own.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Columns of plain text (no escape codes).
    public static func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }
}

/// Makes text from outside (a model, a server, a file) safe to write to a terminal. A control
/// character would act on the terminal instead of showing: ESC starts the sequences that clear the
/// screen, move the cursor, retitle the window or write the clipboard, and CR overwrites the line.
/// Each one (C0 but the line feed and tab, DEL, C1) is replaced by a visible symbol: C0 and DEL by
/// its Unicode control picture (`␛`, `␍`, `␡`), C1 by `�`. So are the bidirectional embeddings,
/// overrides and isolates (U+202A–202E, U+2066–2069), by `�`: the terminal would otherwise show the
/// text around them in another order than it reads ("Trojan Source"). The marks U+200E, U+200F and
/// U+061C stay: they set the direction of the neutral characters next to them, and right-to-left
/// text needs them to show correctly. Text without one is returned as it is, without a copy.
///
/// The markdown renderer (`ANSIRenderer`), the full-screen transcript and the command's printer
/// pass everything they did not write themselves through it.
///
/// ```swift
/// TerminalSanitizer.printable("a\u{1B}[2Jb")   // "a␛[2Jb"
/// ```
public enum TerminalSanitizer {
    /// `text` with every control character but the line feed and tab, and every bidirectional
    /// embedding, override and isolate, replaced by a visible symbol.
    public static func printable(_ text: String) -> String {
        guard needsReplacing(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(printable(scalar)) }
        return String(out)
    }

    /// The symbol a control scalar shows as; any other scalar unchanged.
    public static func printable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x09, 0x0A: scalar
        case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
        case 0x7F: "\u{2421}"
        case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069: "\u{FFFD}"
        default: scalar
        }
    }

    /// Whether `text` holds a byte of such a character: below 0x20 (but LF and tab), 0x7F, a C1
    /// character's UTF-8 form (0xC2 then 0x80–0x9F), or a bidirectional control's (0xE2 0x80
    /// 0xAA–0xAE, 0xE2 0x81 0xA6–0xA9).
    static func needsReplacing(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 {
                if byte != 0x0A && byte != 0x09 { return true }
            } else if byte == 0x7F || (previous == 0xC2 && byte < 0xA0) {
                return true
            } else if beforePrevious == 0xE2,
                (previous == 0x80 && (0xAA...0xAE).contains(byte)) || (previous == 0x81 && (0xA6...0xA9).contains(byte))
            {
                return true
            }
            (beforePrevious, previous) = (previous, byte)
        }
        return false
    }
}

enum TerminalText {
    /// Columns a character takes: 2 for East Asian wide and emoji, 0 for combining marks.
    static func width(of character: Character) -> Int { TerminalColumns.width(of: character) }

    static func width(of scalar: Unicode.Scalar) -> Int { TerminalColumns.width(of: scalar) }

    static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of spans: [TerminalSpan]) -> Int {
        spans.reduce(0) { $0 + width(of: $1.text) }
    }

    /// Breaks spans into lines of at most `width` columns, at spaces, between wide characters,
    /// or inside a word longer than a line. `"\n"` in a span forces a break. A tab separates words
    /// as a space does (as HTML shows it): printed, it would jump to the terminal's next tab stop,
    /// wherever the line's columns were counted to.
    static func wrap(_ spans: [TerminalSpan], width: Int) -> [[TerminalSpan]] {
        let width = max(width, 1)
        var lines: [[TerminalSpan]] = [[]]
        var lineWidth = 0
        var pendingSpace: TerminalSpan?

        func append(_ character: Character, _ style: TerminalStyle, to line: inout [TerminalSpan]) {
            if let last = line.last, last.style == style {
                line[line.count - 1].text.append(character)
            } else {
                line.append(TerminalSpan(text: String(character), style: style))
            }
        }
        func newLine() {
            lines.append([])
            lineWidth = 0
            pendingSpace = nil
        }
        // Words: runs of non-space characters, each wide character its own word.
        var word: [(Character, TerminalStyle)] = []
        var wordWidth = 0
        func flushWord() {
            guard !word.isEmpty else { return }
            let spaceWidth = pendingSpace == nil ? 0 : 1
            if lineWidth > 0 && lineWidth + spaceWidth + wordWidth > width { newLine() }
            if let space = pendingSpace, lineWidth > 0 {
                append(" ", space.style, to: &lines[lines.count - 1])
                lineWidth += 1
            }
            pendingSpace = nil
            for (character, style) in word {
                let w = TerminalText.width(of: character)
                if lineWidth + w > width && lineWidth > 0 { newLine() }
                append(character, style, to: &lines[lines.count - 1])
                lineWidth += w
            }
            word.removeAll()
            wordWidth = 0
        }
        for span in spans {
            for character in TerminalSanitizer.printable(span.text) {
                if character == "\n" {
                    flushWord()
                    newLine()
                } else if character == " " || character == "\t" {
                    flushWord()
                    if lineWidth > 0 { pendingSpace = TerminalSpan(text: " ", style: span.style) }
                } else {
                    let w = TerminalText.width(of: character)
                    if w == 2 { flushWord() }
                    word.append((character, span.style))
                    wordWidth += w
                    if w == 2 { flushWord() }
                }
            }
        }
        flushWord()
        return lines
    }

    /// Cuts text into pieces of at most `width` columns, keeping every space (for code).
    static func hardWrap(_ text: String, width: Int) -> [String] {
        var pieces: [String] = [""]
        var column = 0
        for character in TerminalSanitizer.printable(text) {
            let w = TerminalText.width(of: character)
            if column + w > max(width, 2) && column > 0 {
                pieces.append("")
                column = 0
            }
            pieces[pieces.count - 1].append(character)
            column += w
        }
        return pieces
    }

    /// The spans as text, with escape codes when `colors`.
    static func render(_ spans: [TerminalSpan], colors: Bool) -> String {
        var out = ""
        for span in spans {
            let sgr = span.style.sgr
            let text = TerminalSanitizer.printable(span.text)
            if colors && !sgr.isEmpty {
                out += "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
            } else {
                out += text
            }
        }
        return out
    }

    /// Superscript digits for citation markers: `[12]` → `¹²`.
    static func superscript(_ number: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return String(String(number).compactMap { $0.wholeNumberValue.map { digits[$0] } })
    }
}
