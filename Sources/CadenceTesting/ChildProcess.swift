import Foundation
import NIOConcurrencyHelpers

/// A command run to its end under a deadline, for the harnesses that drive real servers
/// (`initdb`, `pg_ctl`, `psql`).
///
/// It is spawned with `posix_spawn` and waited for with `waitpid`, not with Foundation's `Process`:
/// `Process` learns that a child ended when a socket the child inherited closes, and a daemon the
/// command starts (the postmaster `pg_ctl` forks) inherits that socket too, so `Process` would wait
/// for the daemon, not the command. For the same reason output goes to files, not pipes, and the
/// child closes every descriptor above 2. Past `deadline` the command gets SIGTERM, then SIGKILL,
/// and the result says it timed out.
///
/// ```swift
/// let result = try ChildProcess.runBlocking("/usr/bin/psql", ["-c", "SELECT 1"], deadline: .seconds(30))
/// guard result.succeeded else { throw TestServerError("psql failed: \(result.transcript)") }
/// ```
struct ChildProcess {
    struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        var status: Int32
        /// What it wrote to standard output and to standard error.
        var output, errors: String
        /// The command was still running at its deadline and was killed.
        var timedOut: Bool

        var succeeded: Bool { status == 0 && !timedOut }
        /// Everything the command said, for error messages.
        var transcript: String {
            let said = (output + errors).trimmingCharacters(in: .whitespacesAndNewlines)
            return timedOut ? said + " [killed: still running at its deadline]" : said
        }
    }

    /// Runs the command on the calling thread, blocking it until the command ends or is killed (from
    /// async code, call it inside ``SystemTool/onThread(_:)``).
    static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        input: String? = nil, deadline: Duration
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-child-\(UUID())").path
        let (outputFile, errorFile, inputFile) = (scratch + ".out", scratch + ".err", scratch + ".in")
        defer {
            for file in [outputFile, errorFile, inputFile] { try? FileManager.default.removeItem(atPath: file) }
        }
        guard FileManager.default.createFile(atPath: inputFile, contents: Data((input ?? "").utf8)) else {
            throw TestServerError("could not write \(inputFile)")
        }
        let pid = try spawn(
            executable, arguments, environment: environment, directory: directory,
            streams: [
                .file(inputFile, O_RDONLY), .file(outputFile, O_WRONLY | O_CREAT | O_TRUNC),
                .file(errorFile, O_WRONLY | O_CREAT | O_TRUNC),
            ])

        // The watchdog kills the command at its deadline; `reaped` keeps it from signalling a pid
        // that was already waited for (and could be reused).
        let state = NIOLockedValueBox((reaped: false, timedOut: false))
        let watchdog = DispatchWorkItem {
            for (signal, delay) in [(SIGTERM, 0.0), (SIGKILL, 2.0)] {
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                let sent = state.withLockedValue { state -> Bool in
                    guard !state.reaped else { return false }
                    state.timedOut = true
                    return kill(pid, signal) == 0
                }
                if !sent { return }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline.seconds, execute: watchdog)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let timedOut = state.withLockedValue { state in
            state.reaped = true
            return state.timedOut
        }
        watchdog.cancel()
        let exited = status & 0x7f == 0
        return Result(
            status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
            output: (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "",
            timedOut: timedOut)
    }

    /// What a child's descriptor 0, 1, 2… is: a file opened with `flags`, or a copy of one of ours.
    enum Stream {
        case file(String, Int32)
        case descriptor(Int32)
    }

    /// Starts the command with `streams` as its descriptors 0, 1, 2…, no other descriptor, default
    /// signal handling and no blocked signals, and returns its pid.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String?,
        streams: [Stream]
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, stream) in zip(Int32(0)..., streams) {
            switch stream {
            case .file(let path, let flags): posix_spawn_file_actions_addopen(&actions, number, path, flags, 0o600)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, number)
            }
        }
        guard let closeFrom = GNUSpawnActions.closeFrom, closeFrom(&actions, Int32(streams.count)) == 0 else {
            throw TestServerError("posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later needed)")
        }
        if let directory, let changeDirectory = GNUSpawnActions.changeDirectory {
            _ = changeDirectory(&actions, directory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard error == 0 else {
            throw TestServerError("could not run \(executable): \(String(cString: strerror(error)))")
        }
        return pid
    }
}

/// glibc's spawn actions that Swift's Glibc module does not declare (they need `_GNU_SOURCE`).
private enum GNUSpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    static let changeDirectory = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }
}


/// A real server a harness runs did not start, stop or answer as expected; the message says what it
/// printed.
public struct TestServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    init(_ message: String) { self.message = message }
}
