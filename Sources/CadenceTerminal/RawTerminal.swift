import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real terminal, taken over for a full-screen UI.
///
/// ``enter()`` puts the terminal in raw mode (no echo, no line buffering, and no signals from
/// keys: Ctrl-C arrives as a byte), switches to the alternate screen, turns off line wrapping and
/// asks for SGR mouse-wheel reports and bracketed paste. ``restore()`` undoes exactly that; it is
/// idempotent, and also runs at `exit` and on SIGINT, SIGTERM, SIGHUP and SIGQUIT (which are then
/// re-raised with their default action), so every way out leaves the terminal as it was.
///
/// ``input()`` reads the input on a thread of its own (blocking `poll`/`read`, never on the
/// cooperative pool) and delivers bytes and window-size changes (SIGWINCH) as an `AsyncStream`.
///
/// ```swift
/// let terminal = RawTerminal()
/// try terminal.enter()
/// defer { terminal.restore() }
/// for await input in terminal.input() { … }
/// ```
@MainActor
public final class RawTerminal: TerminalDevice {
    static let enterSequence = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?7l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    public let inputDescriptor: Int32
    public let outputDescriptor: Int32
    private var isActive = false
    /// The wake-up pipe: SIGWINCH and ``restore()`` write to `[1]`; the input thread polls `[0]`.
    private var wakePipe: (read: Int32, write: Int32)?
    /// Whether the input thread runs (it then closes the pipe's read end itself).
    private var isReading = false

    public init(input: Int32 = 0, output: Int32 = 1) {
        inputDescriptor = input
        outputDescriptor = output
    }

    /// Whether both descriptors are terminals.
    public var isTerminal: Bool { isatty(inputDescriptor) == 1 && isatty(outputDescriptor) == 1 }

    public func enter() throws {
        guard !isActive else { return }
        var saved = termios()
        guard tcgetattr(inputDescriptor, &saved) == 0 else {
            throw RawTerminalError(message: "standard input is not a terminal; use --plain", code: errno)
        }
        var raw = saved
        cfmakeraw(&raw)
        Self.setControlCharacter(&raw, VMIN, 1)
        Self.setControlCharacter(&raw, VTIME, 0)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw RawTerminalError(message: "cannot create a pipe", code: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        wakePipe = (fds[0], fds[1])
        TerminalRestoration.wakeDescriptor = fds[1]
        TerminalRestoration.install(
            input: inputDescriptor, output: outputDescriptor, saved: saved, leave: Self.leaveSequence)
        guard tcsetattr(inputDescriptor, TCSANOW, &raw) == 0 else {
            let code = errno
            TerminalRestoration.uninstall()
            throw RawTerminalError(message: "cannot put the terminal in raw mode", code: code)
        }
        isActive = true
        write(Self.enterSequence)
    }

    public func restore() {
        guard isActive else { return }
        isActive = false
        TerminalRestoration.uninstall()
        TerminalRestoration.wakeDescriptor = -1
        if let wakePipe {
            var byte = UInt8(ascii: "q")
            _ = systemWrite(wakePipe.write, &byte, 1)
            // The read end is closed by the input thread when it sees "q"; close the write end now.
            _ = close(wakePipe.write)
            if !isReading { _ = close(wakePipe.read) }
            self.wakePipe = nil
            isReading = false
        }
    }

    public func size() -> TerminalSize {
        var size = winsize()
        if ioctl(outputDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
        }
        return TerminalSize(rows: 24, columns: 80)
    }

    public func write(_ text: String) {
        Self.writeAll(text, to: outputDescriptor)
    }

    public func input() -> AsyncStream<TerminalInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: TerminalInput.self)
        guard let wakePipe, !isReading else {
            continuation.finish()
            return stream
        }
        let input = inputDescriptor
        let thread = Thread {
            Self.readLoop(input: input, wake: wakePipe.read, into: continuation)
        }
        thread.name = "cadence-terminal-input"
        isReading = true
        thread.start()
        return stream
    }

    /// Blocks in `poll` on the input and the wake-up pipe until the input closes or "q" arrives.
    nonisolated static func readLoop(
        input: Int32, wake: Int32, into continuation: AsyncStream<TerminalInput>.Continuation
    ) {
        defer {
            close(wake)
            continuation.finish()
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 {
                let count = read(wake, &buffer, buffer.count)
                if count <= 0 || buffer[..<count].contains(UInt8(ascii: "q")) { return }
                continuation.yield(.resized)
            }
            if fds[0].revents != 0 {
                let count = read(input, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 { return }
                continuation.yield(.bytes(Array(buffer[..<count])))
            }
        }
    }

    /// Writes all of `text` to a file descriptor, unbuffered, through interrupted and would-block
    /// writes; the command's line output uses it too.
    /// Returns 0, or the `errno` of the write that failed (`EPIPE`: the reader closed the pipe).
    @discardableResult
    package nonisolated static func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes -> Int32 in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

    private static func setControlCharacter(_ attributes: inout termios, _ index: Int32, _ value: UInt8) {
        withUnsafeMutableBytes(of: &attributes.c_cc) { bytes in
            bytes[Int(index)] = value
        }
    }
}

/// `write(2)`, named apart from ``RawTerminal/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
