import CadenceTestFixtures
import Foundation
import NIOConcurrencyHelpers

/// The built `cadence` running as a child process whose output a test watches while it runs (to
/// act when the answer is half printed), unlike ``CadenceBinary/run(_:stdin:environment:)``, which
/// returns at the end.
///
/// ```swift
/// let ask = try RunningCommand.start(["ask", "--url", url, "--no-history", "--plain", "Hi"])
/// try await ask.waitUntil("100 bytes printed") { stdout, _ in stdout.utf8.count >= 100 }
/// // … cut its connection …
/// let result = try await ask.finish()
/// ```
final class RunningCommand: @unchecked Sendable {
    private struct State {
        var stdout = Data()
        var stderr = Data()
        var outputEnded = false
        var waiters: [(condition: @Sendable (String, String) -> Bool, continuation: CheckedContinuation<Void, Never>)] =
            []

        /// Takes out the waiters whose condition holds now (all of them once stdout ended).
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let (out, err) = (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
            let ready = waiters.indices.filter { outputEnded || waiters[$0].condition(out, err) }
            defer { for index in ready.reversed() { waiters.remove(at: index) } }
            return ready.map { waiters[$0].continuation }
        }
    }

    private let process: Process
    private let watchdog: DispatchWorkItem
    private let state = NIOLockedValueBox(State())
    private let drained = DispatchGroup()

    private init(process: Process, watchdog: DispatchWorkItem) {
        self.process = process
        self.watchdog = watchdog
    }

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningCommand {
        let (process, out, errors, watchdog) = try CadenceBinary.launch(arguments, environment: environment)
        let command = RunningCommand(process: process, watchdog: watchdog)
        command.drain(out.fileHandleForReading, isStdout: true)
        command.drain(errors.fileHandleForReading, isStdout: false)
        return command
    }

    private func drain(_ handle: FileHandle, isStdout: Bool) {
        drained.enter()
        Thread.detachNewThread { [state, drained] in
            while true {
                let data = handle.availableData
                let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                    if isStdout {
                        state.stdout.append(data)
                        if data.isEmpty { state.outputEnded = true }
                    } else {
                        state.stderr.append(data)
                    }
                    return state.readyWaiters()
                }
                for continuation in ready { continuation.resume() }
                if data.isEmpty { break }
            }
            drained.leave()
        }
    }

    /// What it printed so far.
    var stdout: String { String(decoding: state.withLockedValue { $0.stdout }, as: UTF8.self) }
    var stderr: String { String(decoding: state.withLockedValue { $0.stderr }, as: UTF8.self) }

    /// Returns once what the command printed (stdout, stderr) satisfies `condition`, or once it
    /// closed stdout (check again then); throws at the deadline.
    func waitUntil(
        _ what: String, within timeout: Duration = .seconds(30),
        _ condition: @escaping @Sendable (_ stdout: String, _ stderr: String) -> Bool
    ) async throws {
        try await withDeadline(timeout, "\(what) (stdout: \(stdout.utf8.count) bytes; stderr: \(stderr))") { [state] in
            await withCheckedContinuation { continuation in
                let ready = state.withLockedValue { state in
                    state.waiters.append((condition, continuation))
                    return state.readyWaiters()
                }
                for continuation in ready { continuation.resume() }
            }
        }
    }

    /// Kills it with SIGKILL, as a crash would, unless it has ended already.
    func kill9() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Whether a signal ended it (after ``finish()``), rather than its own exit.
    var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }

    /// Waits for the command to end (the harness watchdog kills it if it hangs) and returns its result.
    func finish() async throws -> CadenceBinary.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { [self] in
                process.waitUntilExit()
                watchdog.cancel()
                _ = drained.wait(timeout: .now() + 5)
                continuation.resume(
                    returning: CadenceBinary.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr))
            }
        }
    }
}
