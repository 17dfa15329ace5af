#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the signal handlers and the `atexit` hook need to give the terminal back, kept in plain
/// globals written before any handler is installed: the handlers use only `write`, `tcsetattr`,
/// `signal` and `raise`, which are async-signal-safe.
enum TerminalRestoration {
    nonisolated(unsafe) static var savedAttributes = termios()
    /// The descriptor whose attributes were changed, or -1 when there is nothing to restore.
    nonisolated(unsafe) static var inputDescriptor: Int32 = -1
    nonisolated(unsafe) static var outputDescriptor: Int32 = -1
    /// The escape codes that leave the alternate screen and turn reporting off.
    nonisolated(unsafe) static var leaveBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) static var leaveCount = 0
    /// The write end of the input thread's wake-up pipe (SIGWINCH writes a byte), or -1.
    nonisolated(unsafe) static var wakeDescriptor: Int32 = -1
    nonisolated(unsafe) static var isAtExitInstalled = false

    static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Restores the terminal once. Async-signal-safe.
    static func restoreNow() {
        let input = inputDescriptor
        guard input >= 0 else { return }
        inputDescriptor = -1
        if let bytes = leaveBytes { _ = write(outputDescriptor, bytes, leaveCount) }
        _ = tcsetattr(input, TCSANOW, &savedAttributes)
    }

    /// Prepares the state and installs the handlers.
    static func install(input: Int32, output: Int32, saved: termios, leave: String) {
        savedAttributes = saved
        outputDescriptor = output
        let utf8 = Array(leave.utf8)
        if leaveBytes == nil {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8.count)
            buffer.initialize(from: utf8, count: utf8.count)
            leaveBytes = buffer
            leaveCount = utf8.count
        }
        inputDescriptor = input
        for signalNumber in handledSignals {
            _ = signal(signalNumber) { received in
                TerminalRestoration.restoreNow()
                _ = signal(received, SIG_DFL)
                _ = raise(received)
            }
        }
        _ = signal(SIGWINCH) { _ in
            let wake = TerminalRestoration.wakeDescriptor
            guard wake >= 0 else { return }
            var byte = UInt8(ascii: "w")
            _ = write(wake, &byte, 1)
        }
        if !isAtExitInstalled {
            isAtExitInstalled = true
            atexit { TerminalRestoration.restoreNow() }
        }
    }

    /// Restores the terminal and the default signal dispositions.
    static func uninstall() {
        restoreNow()
        for signalNumber in handledSignals { _ = signal(signalNumber, SIG_DFL) }
        _ = signal(SIGWINCH, SIG_DFL)
    }
}
