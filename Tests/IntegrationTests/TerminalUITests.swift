import CadenceCore
import Foundation
import Testing

/// The built binary inside a real terminal (tmux), driven by keys and read from the screen.
///
/// Waiting is event-driven: the pane's output is piped into a FIFO that the test reads as it comes,
/// so the test waits for what the program draws, not for a time.
final class TmuxSession: @unchecked Sendable {
    static var isAvailable: Bool { tmuxPath != nil }
    static let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let name = "cadence-test-\(UUID().uuidString.prefix(8))"
    let folder: URL
    private var iterator: AsyncStream<Data>.Iterator
    /// Everything the program wrote to the terminal so far, escape codes included.
    private(set) var output = ""

    /// Starts `command` in a detached tmux session of the given size. The command starts when the
    /// pane's output is already being read, so nothing it draws is missed.
    init(command: String, columns: Int = 100, rows: Int = 40) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("pane.fifo").path
        guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        iterator = stream.makeAsyncIterator()
        Thread.detachNewThread {
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return continuation.finish() }
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                continuation.yield(data)
            }
            continuation.finish()
        }
        let script = "read go; \(command); status=$?; stty -a > \(folder.path)/stty-after; echo CADENCE-EXIT=$status; read done"
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", "sh", "-c",
                  "stty -a > \(folder.path)/stty-before; \(script)"])
        try tmux(["pipe-pane", "-o", "-t", name, "cat > \(fifo)"])
        try keys("Enter")
    }

    deinit {
        _ = try? tmux(["kill-session", "-t", name])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends tmux key names ("Enter", "C-c", "PageUp") or literal text.
    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// The screen as text.
    func capture() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    /// Reads the program's output until `text` appears in it; false if the output ended first.
    func waitForOutput(_ text: String) async -> Bool {
        while !output.contains(text) {
            guard let data = await iterator.next() else { return false }
            output += String(decoding: data, as: UTF8.self)
        }
        return true
    }

    func file(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tmuxPath ?? "tmux")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NO_COLOR")
        environment.removeValue(forKey: "TMUX")
        environment.merge(CadenceBinary.isolatedHistory) { $1 }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("The full-screen terminal UI in a real terminal", .enabled(if: TmuxSession.isAvailable, "needs tmux"))
struct TerminalUITests {
    static let question = "How does Cadence resume an interrupted stream?"

    @Test func demoShowsAResearchedCitedAnswerAndRestoresTheTerminal() async throws {
        // A few milliseconds per token, so that each research stage stays on screen for a few frames.
        let command = "'\(CadenceBinary.url.path)' demo --question '\(Self.question)' --engine-delay-ms 5"
        let session = try TmuxSession(command: command)

        #expect(await session.waitForOutput("\u{1B}[?1049h"), "the alternate screen opens")
        // Follow-ups appear once the answer is complete and fully revealed.
        #expect(await session.waitForOutput("Follow-up questions"), "output: \(session.output.suffix(500))")
        #expect(session.output.contains("Searching"), "the research stages were shown while it ran")

        let screen = try session.capture()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "› \(Self.question)", "screen:\n\(screen)")
        #expect(lines.contains { $0.hasPrefix("✓ quick research · searched") }, "the stages, summed up")
        #expect(screen.contains("resumes"), "the answer text")
        #expect(screen.contains("¹"), "citation markers")
        #expect(screen.contains("Sources") && screen.contains("  [1] ") && screen.contains("cadence://corpus/"))
        #expect(screen.contains("Enter send"), "the input line and its hints")
        let number = lines.firstIndex { $0.hasPrefix("Sources") }
        #expect(number != nil && lines[number! + 1].hasPrefix("  [1] "))

        // Nothing streams now: Ctrl-C leaves, and the terminal is as it was.
        try session.keys("C-c")
        #expect(await session.waitForOutput("CADENCE-EXIT="))
        #expect(session.output.contains("CADENCE-EXIT=0"))
        #expect(session.output.contains("\u{1B}[?1049l"), "the alternate screen closes")
        #expect(session.output.contains("\u{1B}[?25h"), "the cursor shows again")
        let before = session.file("stty-before")
        #expect(!before.isEmpty && before == session.file("stty-after"), "terminal modes restored")
    }

    @Test func ctrlCWhileStreamingCancelsAndKeepsTheText() async throws {
        // Slow tokens: the answer is still streaming when Ctrl-C arrives.
        let command = "'\(CadenceBinary.url.path)' demo --question '\(Self.question)' --engine-delay-ms 150"
        let session = try TmuxSession(command: command, columns: 90, rows: 30)
        #expect(await session.waitForOutput("This draws"), "text started")
        try session.keys("C-c")
        #expect(await session.waitForOutput("cancelled"))
        let screen = try session.capture()
        #expect(screen.contains("cancelled") && screen.contains("This draws"), "screen:\n\(screen)")
        // A second Ctrl-C, now idle, leaves with the terminal restored.
        try session.keys("C-c")
        #expect(await session.waitForOutput("CADENCE-EXIT=0"))
        #expect(session.file("stty-before") == session.file("stty-after"))
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let command = "'\(CadenceBinary.url.path)' demo --question '\(Self.question)' --engine-delay-ms 150"
        let session = try TmuxSession(command: command, columns: 90, rows: 30)
        #expect(await session.waitForOutput("This draws"))
        let pids = try #require(Self.pids(of: "demo --question"))
        for pid in pids { kill(pid, SIGTERM) }
        #expect(await session.waitForOutput("CADENCE-EXIT="))
        #expect(session.output.contains("\u{1B}[?1049l"), "the alternate screen closes")
        #expect(session.file("stty-before") == session.file("stty-after"), "terminal modes restored")
    }

    /// The ids of running processes whose command line contains `fragment` and that run the cadence binary.
    static func pids(of fragment: String) -> [pid_t]? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let line = String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            return line.hasPrefix(CadenceBinary.url.path) && line.contains(fragment) ? pid : nil
        }
    }
}

@Suite("Plain output in pipes")
struct PlainPipeTests {
    @Test func askPipedIntoAFileHasTheTextAndSources() async throws {
        try await withServer { server in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-pipe-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("answer.txt").path
            let result = try await CadenceBinary.runShell(
                "'\(CadenceBinary.url.path)' ask --url \(server.baseURL) --no-history 'What is BM25?' > '\(file)'")
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.contains("\u{1B}"), "no escape codes in a file")
            #expect(text.contains("BM25"))
            let parts = text.components(separatedBy: "\n\nSources\n")
            #expect(parts.count == 2, "text, then the sources: \(text)")
            #expect(parts[1].hasPrefix("  [1] ") && parts[1].contains("cadence://corpus/"))
            let cited = Set(parts[0].matches(of: /\[(\d+)\]/).map { String($0.1) })
            #expect(!cited.isEmpty)
        }
    }

    @Test func jsonLinesEndWithTheCompletion() async throws {
        let result = try await CadenceBinary.run(["demo", "--json", "--question", "What is BM25?", "--engine-delay-ms", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { try JSONValue(parsing: $0) }
        let types = objects.compactMap { $0["type"]?.stringValue }
        #expect(types.first == "stage" && types.last == "completed")
        #expect(types.contains("text") && types.contains("sources"))
        let text = objects.filter { $0["type"]?.stringValue == "text" }.compactMap { $0["text"]?.stringValue }.joined()
        #expect(objects.last?["text"]?.stringValue == text, "the text lines add up to the completed text")
    }
}
