import CadenceCore
import CadenceStore
import Foundation

/// A fresh folder under the system's temporary directory, removed when the test ends.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A wall clock that moves one second per reading, so orderings by time are deterministic.
final class SteppingDates: Sendable {
    private let counter = Counter()
    func next() -> Date { Date(timeIntervalSince1970: 1_800_000_000 + Double(counter.increment())) }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// The id of a process that has exited: a child that ran `true` and was reaped.
func exitedProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

let sampleSources = [
    Source(id: "1", title: "WHATWG SSE", url: "https://html.spec.whatwg.org/#server-sent-events"),
    Source(id: "2", title: "Resume", url: "https://example.org/resume"),
]
