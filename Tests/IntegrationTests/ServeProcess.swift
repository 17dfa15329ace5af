import Foundation
import NIOConcurrencyHelpers

/// The built `cadence serve` running as a child process, for tests that drive the real command.
///
/// ```swift
/// let serve = try await ServeProcess.start(["--provider", "openai", "--base-url", url, "--model", "m"])
/// defer { serve.stop() }
/// let result = try await CadenceBinary.run(["ask", "--url", serve.baseURL, "--no-history", "Hi"])
/// ```
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let baseURL: String
    private let watchdog: DispatchWorkItem
    /// What the server wrote to stderr so far; both pipes are drained as the server writes, so a
    /// chatty server never blocks on a full pipe.
    private let stderrBytes = NIOLockedValueBox(Data())
    private let drained = DispatchGroup()

    /// The server's process id.
    var pid: Int32 { process.processIdentifier }

    private init(process: Process, baseURL: String, out: Pipe, errors: Pipe, watchdog: DispatchWorkItem) {
        self.process = process
        self.baseURL = baseURL
        self.watchdog = watchdog
        drain(out.fileHandleForReading) { _ in }
        drain(errors.fileHandleForReading) { [stderrBytes] data in stderrBytes.withLockedValue { $0.append(data) } }
    }

    private func drain(_ handle: FileHandle, into sink: @escaping @Sendable (Data) -> Void) {
        drained.enter()
        Thread.detachNewThread { [drained] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                sink(data)
            }
            drained.leave()
        }
    }

    /// Starts `cadence serve --port 0 ARGUMENTS` and returns once it printed `listening on URL`.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServeProcess {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try startBlocking(arguments, environment: environment) })
            }
        }
    }

    private static func startBlocking(_ arguments: [String], environment: [String: String]) throws -> ServeProcess {
        let (process, out, errors, watchdog) = try CadenceBinary.launch(
            ["serve", "--port", "0"] + arguments, environment: environment)
        // Read the first line: "listening on http://127.0.0.1:PORT" (or the end, if it failed to start).
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on ") else {
            process.waitUntilExit()
            watchdog.cancel()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServeFailure(
                message: "cadence serve did not start (exit \(process.terminationStatus)): \(text) \(stderr)")
        }
        return ServeProcess(
            process: process, baseURL: String(text.dropFirst("listening on ".count)), out: out, errors: errors,
            watchdog: watchdog)
    }

    /// What the server wrote to stderr so far.
    var stderr: String { String(decoding: stderrBytes.withLockedValue { $0 }, as: UTF8.self) }

    /// Stops the server with SIGTERM and returns what it wrote to stderr.
    @discardableResult
    func stop() -> String {
        if process.isRunning { process.terminate() }
        return waitForExit()
    }

    /// Kills the server with SIGKILL, as a crash would: no shutdown, nothing said to its clients or
    /// its database. Returns what it wrote to stderr.
    @discardableResult
    func kill9() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        return waitForExit()
    }

    private func waitForExit() -> String {
        process.waitUntilExit()
        watchdog.cancel()
        _ = drained.wait(timeout: .now() + 5)
        return stderr
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
