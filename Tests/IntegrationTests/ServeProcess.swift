import Foundation

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
    private let errors: Pipe
    private let watchdog: DispatchWorkItem

    private init(process: Process, baseURL: String, errors: Pipe, watchdog: DispatchWorkItem) {
        self.process = process
        self.baseURL = baseURL
        self.errors = errors
        self.watchdog = watchdog
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
        let process = Process()
        process.executableURL = CadenceBinary.url
        process.arguments = ["serve", "--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(CadenceBinary.isolatedHistory) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        let errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = CadenceBinary.killIfHung(process)
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
            throw ServeFailure(message: "cadence serve did not start (exit \(process.terminationStatus)): \(text) \(stderr)")
        }
        return ServeProcess(
            process: process, baseURL: String(text.dropFirst("listening on ".count)), errors: errors, watchdog: watchdog)
    }

    /// Stops the server with SIGTERM and returns what it wrote to stderr.
    @discardableResult
    func stop() -> String {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        watchdog.cancel()
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
