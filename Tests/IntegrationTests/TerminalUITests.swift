import CadenceCore
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
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

    /// A tmux server of this session's own, started with no configuration file: a tmux the user
    /// already runs would give its panes its own environment (the user's data directory) and
    /// settings; and a server shared by the tests exits when one test's last session ends, so the
    /// next test's `new-session` could reach it while it shut down: a session whose program never
    /// drew (twice in CI under load). This one ends with its session.
    var serverOptions: [String] { ["-L", name, "-f", "/dev/null"] }

    let name = "cadence-test-\(UUID().uuidString.prefix(8))"
    let folder: URL
    private let fifo: String
    private var iterator: AsyncStream<Data>.Iterator
    /// Feeds `iterator`: the FIFO's reader, and the screen waits' ticks (empty data).
    private let continuation: AsyncStream<Data>.Continuation
    /// Everything the program wrote to the terminal so far, escape codes included.
    private(set) var output = ""

    /// Starts `command` in a detached tmux session of the given size. The command starts when the
    /// pane's output is already being read, so nothing it draws is missed.
    init(command: String, columns: Int = 100, rows: Int = 40) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("pane.fifo").path
        self.fifo = fifo
        guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        iterator = stream.makeAsyncIterator()
        self.continuation = continuation
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

    /// The processes the pane's shell started: the program under test, and nothing of another test's.
    func programIDs() throws -> [pid_t] {
        let shell = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }
    }

    /// Resizes the terminal, as a user dragging the window's corner (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The screen as text.
    func capture() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    /// Reads the program's output until `text` appears in it; false if the output ended first.
    func waitForOutput(_ text: String, deadline seconds: TimeInterval = 90) async -> Bool {
        await wait(for: "\"\(text)\" in the output", deadline: seconds) { $0.output.contains(text) }
    }

    /// Reads the program's output until, after what it drew, the screen satisfies `condition`.
    func waitForScreen(
        _ description: String, deadline seconds: TimeInterval = 90, _ condition: @escaping (String) -> Bool
    ) async -> Bool {
        // tmux may hand the pipe the program's last output before its screen shows it, and then
        // nothing more arrives: so the screen is read again on a tick too, not only on new output.
        let ticks = DispatchSource.makeTimerSource(queue: .global())
        ticks.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        ticks.setEventHandler { [continuation] in continuation.yield(Data()) }
        ticks.resume()
        defer { ticks.cancel() }
        return await wait(for: description, deadline: seconds) { session in
            (try? session.capture()).map(condition) ?? false
        }
    }

    /// Reads output chunk by chunk until `condition` holds.
    ///
    /// The deadline is a safety net, not a timer the test relies on: if the condition never comes,
    /// the session is killed, the output ends, and the test fails saying what it waited for, instead
    /// of holding the whole run until CI gives up.
    private func wait(
        for description: String, deadline seconds: TimeInterval, until condition: (TmuxSession) -> Bool
    ) async -> Bool {
        let gaveUp = Flag()
        let watchdog = DispatchWorkItem { [weak self] in
            gaveUp.set()
            self?.abandon()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        defer { watchdog.cancel() }
        while !condition(self) {
            guard let data = await iterator.next() else {
                if gaveUp.isSet { Issue.record("gave up after \(Int(seconds)) s waiting for \(description)") }
                return false
            }
            output += String(decoding: data, as: UTF8.self)
        }
        return true
    }

    /// Ends the session and the reader of its output.
    private func abandon() {
        _ = try? tmux(["kill-session", "-t", name])
        // If tmux never opened the FIFO, the reader still waits in open(2); a read-write open is a
        // writer that never blocks, and closing it gives the reader its end of file.
        let descriptor = open(fifo, O_RDWR | O_NONBLOCK)
        if descriptor >= 0 { close(descriptor) }
    }

    func file(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Adds "close every descriptor from 3 up" to the child's actions: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34+, looked up at run time because Swift's Glibc
    /// module does not declare it), else a close for each descriptor open now.
    private static func closeEverythingElse(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    /// Runs one tmux command and returns what it printed.
    ///
    /// Through `posix_spawn`, not Foundation's `Process`: the first tmux command forks the tmux server,
    /// and a server that inherited the socket `Process` watches for its child's exit makes
    /// `waitUntilExit()` wait for the server, forever. On a machine with no tmux server running yet
    /// (a clean CI box) that hung the whole run. Here the child gets only standard input, output and
    /// error, and its exit is `waitpid`.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let path = Self.tmuxPath ?? "/usr/bin/tmux"
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NO_COLOR")
        environment.removeValue(forKey: "TMUX")
        environment.merge(CadenceBinary.isolatedHistory) { $1 }

        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        Self.closeEverythingElse(&actions)
        let argv = ([path] + serverOptions + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(output[1])
        defer { close(output[0]) }
        guard spawned == 0 else { throw POSIXError(.init(rawValue: spawned) ?? .EIO) }

        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output[0], &buffer, buffer.count)
            if count > 0 { data.append(buffer, count: count); continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("The full-screen terminal UI in a real terminal", .enabled(if: TmuxSession.isAvailable, "needs tmux"))
struct TerminalUITests {
    static let question = "How does Cadence resume an interrupted stream?"

    /// The shell line that runs `cadence demo` on `question`, its engine waiting `delayMs` per token.
    static func demo(_ question: String = Self.question, delayMs: Int, environment: String = "") -> String {
        "\(environment)'\(CadenceBinary.url.path)' demo --question '\(question)' --engine-delay-ms \(delayMs)"
    }

    @Test func demoShowsAResearchedCitedAnswerAndRestoresTheTerminal() async throws {
        // A few milliseconds per token, so that each research stage stays on screen for a few frames.
        let command = Self.demo(delayMs: 5)
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

    @Test func resizingTheTerminalReWrapsTheAnswer() async throws {
        let command = Self.demo(delayMs: 0)
        let session = try TmuxSession(command: command, columns: 100, rows: 60)
        /// The answer's prose, word by word: from its first line to the source list.
        func prose(_ screen: String) -> [Substring] {
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            guard let start = lines.firstIndex(where: { $0.hasPrefix("This draws") }),
                let end = lines.firstIndex(where: { $0.hasPrefix("Sources") }), start < end
            else { return [] }
            return lines[start..<end].flatMap { $0.split(separator: " ") }
        }
        #expect(await session.waitForScreen("the finished answer") { $0.contains("Follow-up questions") })
        let wide = try session.capture()
        let words = prose(wide)
        #expect(wide.split(separator: "\n").contains { $0.count > 70 }, "lines use the width:\n\(wide)")
        try session.resize(columns: 60, rows: 60)
        // Cut at 60 columns, the long lines would lose words; re-wrapped by the program, every word
        // is still there, in order, and every line fits.
        #expect(await session.waitForScreen("the answer re-wrapped to 60 columns") { screen in
            screen.split(separator: "\n").allSatisfy { $0.count <= 60 } && prose(screen) == words
        })
        #expect(!words.isEmpty)
        try session.keys("C-c")
        #expect(await session.waitForOutput("CADENCE-EXIT=0"))
    }

    @Test func noColorKeepsTheFullScreenUIWithoutColours() async throws {
        let command = Self.demo("What is BM25?", delayMs: 0, environment: "NO_COLOR=1 ")
        let session = try TmuxSession(command: command, columns: 90, rows: 30)
        #expect(await session.waitForOutput("Follow-up questions"))
        #expect(session.output.contains("\u{1B}[?1049h"), "still full-screen")
        let styles = session.output.matches(of: /\x1B\[([0-9;]*)m/).map { String($0.1) }
        #expect(styles.allSatisfy { $0.isEmpty || $0 == "0" }, "only resets, no colour or style: \(Set(styles))")
        let withColour = try TmuxSession(
            command: Self.demo("What is BM25?", delayMs: 0), columns: 90, rows: 30)
        #expect(await withColour.waitForOutput("Follow-up questions"))
        #expect(withColour.output.matches(of: /\x1B\[([0-9;]*)m/).contains { !$0.1.isEmpty && $0.1 != "0" },
                "without NO_COLOR the same screen has colour, so the check above can fail")
        try session.keys("C-c")
        try withColour.keys("C-c")
        #expect(await session.waitForOutput("CADENCE-EXIT=0"))
        #expect(await withColour.waitForOutput("CADENCE-EXIT=0"))
    }

    @Test func ctrlCWhileStreamingCancelsAndKeepsTheText() async throws {
        // Slow tokens: the answer is still streaming when Ctrl-C arrives.
        let command = Self.demo(delayMs: 60)
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

    @Test func theReaderScrollsBackWhileItStreamsAndEndFollowsAgain() async throws {
        // A short terminal, so the answer overflows it while still streaming.
        let command = Self.demo(delayMs: 40)
        let session = try TmuxSession(command: command, columns: 80, rows: 14)
        let question = "› \(Self.question)"
        // Pinned: the view follows the text, so the question scrolls off the top.
        #expect(await session.waitForScreen("the question to scroll off") { screen in
            screen.contains("This draws") && !screen.hasPrefix(question)
        })
        try session.keys("PageUp")
        // Unpinned: the view stays where the reader is, and counts what arrives below.
        var indicator = ""
        #expect(await session.waitForScreen("the new-lines indicator") { screen in
            guard let line = screen.split(separator: "\n").first(where: { $0.contains("new lines") }) else { return false }
            indicator = String(line)
            return true
        })
        #expect(indicator.contains("↓ ") && indicator.contains("End to follow"), "indicator: \(indicator)")
        let top = try session.capture().split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        #expect(await session.waitForScreen("more new lines") { screen in
            let line = screen.split(separator: "\n").first { $0.contains("new lines") }
            return line != nil && String(line!) != indicator
        })
        let still = try session.capture()
        #expect(still.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == top,
                "the reader's place does not move while text arrives:\n\(still)")
        // End follows again: the indicator goes, and the finished answer's end is in view.
        try session.keys("End")
        #expect(await session.waitForScreen("the end of the answer, followed") { screen in
            screen.contains("Follow-up questions") && !screen.contains("new lines")
        })
        try session.keys("C-c")
        #expect(await session.waitForOutput("CADENCE-EXIT=0"))
    }

    @Test func askShowsAModelsReasoningDimmedBeforeItsAnswer() async throws {
        let fixture = "deepseek-reasoning-content.txt"
        let server = try await ReplayServer.start(routes: [
            "/v1/chat/completions": [.stream(try SharedFixtures.streamBytes(fixture))]
        ])
        defer { Task { await server.shutdown() } }
        let command =
            "'\(CadenceBinary.url.path)' ask --provider openai --base-url \(server.baseURL)/v1 --model m --no-history Hi"
        let session = try TmuxSession(command: command, columns: 100, rows: 40)
        #expect(await session.waitForOutput("CADENCE-EXIT=0"), "output: \(session.output.suffix(500))")
        // On a terminal the reasoning comes first, dimmed, then a blank line, then the answer as sent.
        let output = session.output
        let answerStart = String(try SharedFixtures.expectedText(fixture).prefix(24))
        let reasoning = try #require(output.range(of: "\u{1B}[2mWe\u{1B}[0m"), "output: \(output.prefix(500))")
        let answer = try #require(output.range(of: answerStart), "output: \(output.suffix(500))")
        #expect(reasoning.upperBound <= answer.lowerBound)
        #expect(output[reasoning.upperBound..<answer.lowerBound].hasSuffix("\r\n\r\n"))
        #expect(!output[answer.lowerBound...].contains("\u{1B}[2m"), "no reasoning after the answer began")
    }

    @Test func leavingWhileAnAnswerStreamsCancelsItOnTheServer() async throws {
        // A server's answer outlives a reader who merely disconnects (it can be resumed): only the
        // `DELETE` stops its engine, so the command must not exit before that request is made.
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("Partial answer "))
            let session = try TmuxSession(
                command: "'\(CadenceBinary.url.path)' chat --url \(server.baseURL) --no-history", columns: 90, rows: 30)
            try session.keys("What is SSE?", "Enter")
            #expect(await session.waitForOutput("Partial"), "the answer streams")
            try session.keys("C-d")  // leaves, the line being empty, while the answer still streams
            #expect(await session.waitForOutput("CADENCE-EXIT="))
            #expect(
                await engine.isCancelled(), "the server's engine was not cancelled: chat exited without cancelling the answer")
        }
    }

    @Test func aFailedAnswerSaysWhatToDoInTheCommandsTerms() async throws {
        // A server that needs a token, asked without one: the screen says to pass --token, as line
        // mode does, not only the library's message.
        var configuration = ServerConfiguration()
        configuration.token = "t0ken-for-tests"
        try await withServer(configuration: configuration) { server in
            let session = try TmuxSession(
                command: "env -u CADENCE_TOKEN '\(CadenceBinary.url.path)' chat --url \(server.baseURL) --no-history",
                columns: 240, rows: 30)
            try session.keys("What is SSE?", "Enter")
            #expect(await session.waitForOutput("needs a token"), "output: \(session.output.suffix(500))")
            #expect(
                await session.waitForOutput("Pass the server's token with --token or set CADENCE_TOKEN"),
                "screen:\n\((try? session.capture()) ?? "")")
            try session.keys("C-d")
            #expect(await session.waitForOutput("CADENCE-EXIT="))
        }
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let command = Self.demo(delayMs: 60)
        let session = try TmuxSession(command: command, columns: 90, rows: 30)
        #expect(await session.waitForOutput("This draws"))
        let pids = try session.programIDs()
        #expect(!pids.isEmpty, "the program runs in the pane")
        for pid in pids { kill(pid, SIGTERM) }
        #expect(await session.waitForOutput("CADENCE-EXIT="))
        #expect(session.output.contains("\u{1B}[?1049l"), "the alternate screen closes")
        #expect(session.file("stty-before") == session.file("stty-after"), "terminal modes restored")
    }

    @Test func aDroppedConnectionShowsTheReconnectBannerAndTheAnswerCompletes() async throws {
        let script = FaultScript.answer(
            text: "Resumed answers keep every word exactly once, even when the connection drops.", tokenCharacters: 5)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        // The first connection breaks mid-answer; the resume gets 503 once, then succeeds.
        server.enqueue(.closeAfter(bytes: script.frames(after: 0).frameEnds[6] + 2), .status(503))
        let command = "'\(CadenceBinary.url.path)' chat --url \(server.baseURL) --no-history"
        let session = try TmuxSession(command: command, columns: 100, rows: 24)
        #expect(await session.waitForOutput("Enter send"), "the UI is up")
        try session.keys("-l", "Does resume work?")
        try session.keys("Enter")
        #expect(await session.waitForOutput("Reconnecting (attempt"), "output: \(session.output.suffix(400))")
        #expect(await session.waitForOutput("Reconnected"))
        // The pacer reveals the last words after the stream ends: wait for them on the screen.
        #expect(await session.waitForScreen("the whole answer") { $0.contains("when the connection drops.") })
        let screen = try session.capture()
        #expect(screen.contains("Resumed answers keep every word exactly once"), "screen:\n\(screen)")
        #expect(screen.components(separatedBy: "keep every word").count == 2, "no text doubled")
        try session.keys("C-d")
        #expect(await session.waitForOutput("CADENCE-EXIT=0"))
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
