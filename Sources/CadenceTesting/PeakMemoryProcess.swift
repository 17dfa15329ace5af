import Foundation
import NIOConcurrencyHelpers

/// Runs a command with input generated on the fly into a real pipe and measures its peak resident
/// memory exactly, as the kernel counts it: for tests that prove a command's memory is bounded
/// whatever the size of its input.
///
/// The peak is the `ru_maxrss` that `wait4(2)` reports, with one precaution. A child started with
/// `posix_spawn` (or `Process`) shares the spawning process's memory until it calls `exec`, and Linux
/// then records *that* memory's high-water mark as the child's: the child would seem to use as much
/// memory as the whole test process. So the command is started by `/bin/sh`, which forks it (a small
/// copy of the small shell) and exits at once. This process is a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`), so the orphaned command becomes its child, and `wait4` on it reports
/// only the command's own peak (or the shell's few hundred kilobytes, if that were larger).
///
/// ```swift
/// let run = try PeakMemoryProcess.run(cadence, ["decode", "--events", "-"]) { write in
///     let line = Array(repeating: UInt8(ascii: "x"), count: 64 << 10)
///     for _ in 0..<1600 where write(line) {}   // 100 MiB without a newline, or less if it stops reading
/// }
/// #expect(run.peakResidentBytes < 40 << 20)
/// ```
public enum PeakMemoryProcess {
    /// What the command did.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// The most memory the command had resident at once, in bytes.
        public var peakResidentBytes: Int
        /// How many bytes of input it read before it ended (the rest was refused: it stopped reading).
        public var inputBytesAccepted: Int
        /// How many bytes it wrote to stdout, how many lines, and the first 64 KiB.
        public var outputBytes: Int
        public var outputLines: Int
        public var outputStart: String
        /// Everything it wrote to stderr.
        public var errors: String
        /// It was still running at its deadline and was killed.
        public var timedOut: Bool
    }

    /// Runs `executable` with `arguments`; `writeInput` gets a function that writes bytes to the
    /// command's stdin and returns `false` once the command no longer reads (it exited). Stdin is
    /// closed when `writeInput` returns. Past `deadline` the command is killed.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        deadline: Duration = .seconds(300),
        writeInput: @escaping @Sendable (_ write: ([UInt8]) -> Bool) -> Void
    ) throws -> Result {
        guard becameSubreaper else { throw TestServerError("prctl(PR_SET_CHILD_SUBREAPER) failed") }
        let input = try pipe(), output = try pipe(), errors = try pipe(), announcement = try pipe()
        // The shell keeps stdin for the background command (an asynchronous list's stdin is /dev/null
        // otherwise), starts it, says its pid on descriptor 3 and exits.
        let script = #"exec 4<&0; "$@" 0<&4 4<&- 3>&- & echo $! >&3"#
        let shell: pid_t
        do {
            shell = try ChildProcess.spawn(
                "/bin/sh", ["-c", script, "sh", executable] + arguments, environment: environment, directory: nil,
                streams: [.descriptor(input.read), .descriptor(output.write), .descriptor(errors.write),
                    .descriptor(announcement.write)])
        } catch {
            for descriptor in [input, output, errors, announcement].flatMap({ [$0.read, $0.write] }) { close(descriptor) }
            throw error
        }
        for descriptor in [input.read, output.write, errors.write, announcement.write] { close(descriptor) }

        let announced = String(decoding: readAll(announcement.read), as: UTF8.self)
        close(announcement.read)
        var status: Int32 = 0
        while waitpid(shell, &status, 0) == -1, errno == EINTR {}
        guard let pid = pid_t(announced.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            for descriptor in [input.write, output.read, errors.read] { close(descriptor) }
            throw TestServerError("the shell did not start \(executable): said \(announced.debugDescription)")
        }

        let done = DispatchGroup()
        let accepted = NIOLockedValueBox(0)
        done.enter()
        Thread.detachNewThread {
            // A write to a pipe nobody reads raises SIGPIPE in the writing thread: blocked here, it
            // stays pending on this thread (discarded when it ends) and the write fails with EPIPE.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            writeInput { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { Glibc.write(input.write, $0.baseAddress, $0.count) }
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return false }
                    offset += written
                    accepted.withLockedValue { $0 += written }
                }
                return true
            }
            close(input.write)
            done.leave()
        }
        let outputSummary = NIOLockedValueBox((bytes: 0, lines: 0, start: [UInt8]()))
        let errorText = NIOLockedValueBox([UInt8]())
        done.enter()
        Thread.detachNewThread {
            drain(output.read) { chunk in
                outputSummary.withLockedValue { summary in
                    summary.bytes += chunk.count
                    summary.lines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    if summary.start.count < 64 << 10 { summary.start += chunk.prefix((64 << 10) - summary.start.count) }
                }
            }
            done.leave()
        }
        done.enter()
        Thread.detachNewThread {
            drain(errors.read) { chunk in errorText.withLockedValue { $0 += chunk } }
            done.leave()
        }

        // The watchdog kills the command at its deadline; `reaped` keeps it from signalling a pid
        // that was already waited for (and could be reused).
        let state = NIOLockedValueBox((reaped: false, timedOut: false))
        let watchdog = DispatchWorkItem {
            state.withLockedValue { state in
                guard !state.reaped else { return }
                state.timedOut = true
                kill(pid, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline.seconds, execute: watchdog)
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else {
                throw TestServerError("wait4 on \(pid) failed: \(String(cString: strerror(errno)))")
            }
        }
        let timedOut = state.withLockedValue { state in
            state.reaped = true
            return state.timedOut
        }
        watchdog.cancel()
        done.wait()
        for descriptor in [output.read, errors.read] { close(descriptor) }
        let summary = outputSummary.withLockedValue { $0 }
        return Result(
            status: status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f),
            peakResidentBytes: Int(usage.ru_maxrss) * 1024,  // Linux counts kilobytes
            inputBytesAccepted: accepted.withLockedValue { $0 },
            outputBytes: summary.bytes, outputLines: summary.lines,
            outputStart: String(decoding: summary.start, as: UTF8.self),
            errors: String(decoding: errorText.withLockedValue { $0 }, as: UTF8.self), timedOut: timedOut)
    }

    /// Set once for the whole test process: orphaned descendants become its children. Harnesses wait
    /// for their own children by pid, so this changes nothing for them.
    private static let becameSubreaper: Bool = {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return false }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)  // variadic in C, so not imported into Swift
        return prctl(36 /* PR_SET_CHILD_SUBREAPER */, 1, 0, 0, 0) == 0
    }()

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Glibc.pipe(&descriptors) == 0 else {
            throw TestServerError("pipe failed: \(String(cString: strerror(errno)))")
        }
        // Not inherited by children other tests start meanwhile (the spawn copies them to 0…3).
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    private static func drain(_ descriptor: Int32, _ body: ([UInt8]) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            body(Array(buffer[..<count]))
        }
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var all: [UInt8] = []
        drain(descriptor) { all += $0 }
        return all
    }
}
