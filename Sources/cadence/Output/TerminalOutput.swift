import CadenceMarkdown
import CadenceTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command writes, and whether it may use colour and escape codes.
struct TerminalOutput {
    /// Escape codes are allowed: stdout is a terminal, `--plain` was not given, and `NO_COLOR` is unset.
    let styled: Bool

    init(plain: Bool) {
        styled = !plain && isatty(STDOUT_FILENO) == 1 && !Self.noColor
    }

    /// `NO_COLOR` is set to a non-empty value (no-color.org).
    static var noColor: Bool {
        getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
    }

    /// Writes to stdout. When its reader has closed it (`cadence ask … | head -1`), the answer
    /// being printed is cancelled as Ctrl-C would (``Interrupt/outputClosed()``): nobody reads it.
    func write(_ text: String) {
        if Self.write(text, to: STDOUT_FILENO) == EPIPE { Interrupt.outputClosed() }
    }

    /// Writes all of `text` to a file descriptor, unbuffered, so streamed text appears at once.
    /// Returns 0, or the `errno` of the write that failed.
    @discardableResult
    static func write(_ text: String, to descriptor: Int32) -> Int32 {
        RawTerminal.writeAll(text, to: descriptor)
    }

    func line(_ text: String = "") {
        write(text + "\n")
    }

    func dim(_ text: String) -> String { styled ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { styled ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func cyan(_ text: String) -> String { styled ? "\u{1B}[36m\(text)\u{1B}[0m" : text }

    /// The terminal's width in columns (`TIOCGWINSZ`, then `$COLUMNS`, then 80).
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns >= 20 { return columns }
        return 80
    }

    /// The terminal's height in rows (`TIOCGWINSZ`, then `$LINES`, then 24).
    static func terminalHeight() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        if let lines = getenv("LINES").flatMap({ Int(String(cString: $0)) }), lines > 0 { return lines }
        return 24
    }

    /// Writes `cadence: text` on stderr. The text may quote a server (an error body), so control
    /// characters show as symbols (`TerminalSanitizer`).
    static func error(_ text: String) {
        write("cadence: \(TerminalSanitizer.printable(text))\n", to: STDERR_FILENO)
    }
}
