import CadenceServer
import Foundation

/// A ``ServerNode`` running in a child process: this same executable started again with `node`
/// (every benchmark executable that starts nodes hands `node` to ``ServerNode/run(arguments:)``).
/// The parent reads the child's memory from `/proc/PID/status` and its CPU time from
/// `/proc/PID/stat`, and tells it when to start producing and when to end held answers.
package final class NodeProcess: Sendable {
    package let port: Int
    package let pid: Int32
    private let process: Process
    private let input: FileHandle

    private init(port: Int, process: Process, input: FileHandle) {
        self.port = port
        self.pid = process.processIdentifier
        self.process = process
        self.input = input
    }

    /// Starts a node and waits until it listens (at most 60 s: connecting to PostgreSQL and
    /// migrating can take a few seconds on a loaded machine).
    package static func start(postgresURL: String?) async throws -> NodeProcess {
        try await start(arguments: nodeArguments(postgresURL: postgresURL))
    }

    /// The arguments that start a Cadence node, through PostgreSQL when `postgresURL` is given.
    private static func nodeArguments(postgresURL: String?) -> [String] {
        ["node"] + (postgresURL.map { ["--postgres", $0] } ?? [])
    }

    /// Starts this executable with `arguments` (a node of another kind: the first argument names it),
    /// and waits until it prints `port N`.
    package static func start(arguments: [String]) async throws -> NodeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        let line = await onThread { () -> String in
            var bytes: [UInt8] = []
            while true {
                let data = stdout.fileHandleForReading.readData(ofLength: 1)
                guard let byte = data.first, byte != UInt8(ascii: "\n") else { break }
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard line.hasPrefix("port "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw BenchmarkError("the \(arguments[0]) process did not start (it said \"\(line)\")")
        }
        return NodeProcess(port: port, process: process, input: stdin.fileHandleForWriting)
    }

    /// Runs `body` with a node started for it, and stops the node afterwards, whether `body`
    /// returns or throws.
    package static func with<T>(
        postgresURL: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (NodeProcess) async throws -> T
    ) async throws -> T {
        try await with(arguments: nodeArguments(postgresURL: postgresURL), body)
    }

    /// Runs `body` with a node of the kind `arguments` start (``start(arguments:)``), and stops the
    /// node afterwards, whether `body` returns or throws.
    package static func with<T>(
        arguments: [String], isolation: isolated (any Actor)? = #isolation, _ body: (NodeProcess) async throws -> T
    ) async throws -> T {
        try await withReleasing(try await start(arguments: arguments), release: { await $0.stop() }, body)
    }

    /// Every answer starts producing.
    package func go() {
        input.write(Data("go\n".utf8))
    }

    /// Every answer holding its end (``TimestampEngine/Plan/holdsEnd``) sends `complete`.
    package func end() {
        input.write(Data("end\n".utf8))
    }

    /// Asks the node to shut down and waits for it (killing it after 30 s).
    package func stop() async {
        input.write(Data("quit\n".utf8))
        try? input.close()
        let process = self.process
        await onThread {
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// Resident memory now (`VmRSS`) and its peak so far (`VmHWM`), in bytes.
    package func memory() -> (resident: Int, peak: Int) {
        let memory = ProcessMemory.read(pid: pid)
        return (memory.resident, memory.peak)
    }

    /// User plus system CPU time the node has used, in seconds.
    package func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm) ", the fields are numbered from 3 (state); utime is 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw BenchmarkError("cannot find this executable through /proc/self/exe") }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Runs blocking work on a thread of its own, off Swift's small cooperative pool.
package func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// Why a benchmark could not run.
package struct BenchmarkError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
