import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Foundation
import Testing

/// Runs the built `cadence` binary as a subprocess.
struct CadenceBinary {
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["CADENCE_BINARY"] { return URL(fileURLWithPath: path) }
        // The test bundle and the executable are built into the same folder.
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("cadence")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/cadence")
    }()

    /// Commands keep history under a temporary folder, never in the user's data directory.
    static let isolatedHistory: [String: String] = {
        atexit { try? FileManager.default.removeItem(at: isolatedHistoryFolder) }
        return ["CADENCE_DATA_HOME": isolatedHistoryFolder.path]
    }()

    /// One folder per test process, removed when it exits.
    private static var isolatedHistoryFolder: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cadence-tests-\(getpid())")
    }

    /// How long a command may run before the harness kills it. Generous: commands finish in well under a
    /// second here; this only turns a hang into a failure.
    static let processDeadline: TimeInterval = 120

    /// Starts `cadence ARGUMENTS` with the isolated history and `environment`, its output on two pipes
    /// the caller reads, and a watchdog that kills it if it hangs (cancel the watchdog once it ends).
    @discardableResult
    static func launch(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (process: Process, stdout: Pipe, stderr: Pipe, watchdog: DispatchWorkItem)
    {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(isolatedHistory) { $1 }
            .merging(environment) { $1 }
        let (out, errors) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, errors, killIfHung(process))
    }

    /// A safety net, not a timer a test relies on: kills `process` if it still runs after
    /// ``processDeadline``, so a child that hangs fails its test instead of holding the whole run
    /// until CI gives up. Cancel the returned item once the process has ended.
    @discardableResult
    static func killIfHung(_ process: Process) -> DispatchWorkItem {
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + processDeadline, execute: watchdog)
        return watchdog
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary on a thread of its own, so that waiting for it never blocks the cooperative
    /// thread pool (an in-process server in the same test needs that pool to answer the binary).
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) async throws
        -> Result
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, stdin: stdin, environment: environment) })
            }
        }
    }

    /// Runs a shell command line (for redirections), off the cooperative pool like ``run(_:stdin:environment:)``.
    static func runShell(_ line: String) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try runBlocking(["-c", line], stdin: nil, environment: [:], executable: URL(fileURLWithPath: "/bin/sh")) })
            }
        }
    }

    static func runBlocking(
        _ arguments: [String], stdin: Data?, environment: [String: String], executable: URL = CadenceBinary.url
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(isolatedHistory) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let watchdog = killIfHung(process)
        defer { watchdog.cancel() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        var stderr = String(decoding: errData, as: UTF8.self)
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            stderr += "\n[test harness: killed after \(Int(processDeadline)) s: the command did not finish]"
        }
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: stderr)
    }
}

@Suite("The cadence command")
struct CommandTests {
    @Test("demo streams a cited answer with stages and a source list")
    func demo() async throws {
        let result = try await CadenceBinary.run([
            "demo", "--question", "How does retry with exponential backoff and jitter work?", "--engine-delay-ms", "0",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let out = result.stdout
        #expect(!out.contains("\u{1B}["), "no escape codes when stdout is not a terminal")
        #expect(out.contains("· Searching"))
        #expect(out.contains("Sources"))
        let cited = Set(out.matches(of: /\[(\d+)\]/).map { String($0.1) })
        #expect(cited.contains("1"))
        #expect(out.contains("  [1] "))
    }

    @Test("demo --plain prints only the text and the sources")
    func demoPlain() async throws {
        let result = try await CadenceBinary.run(["demo", "--plain", "--question", "What is BM25?", "--engine-delay-ms", "0"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("· "))
        #expect(result.stdout.contains("\nSources\n"))
    }

    @Test("decode --events prints one JSON object per dispatched event, at any chunk size", arguments: [nil, 1, 3])
    func decodeEvents(chunkSize: Int?) async throws {
        let stream = "retry: 1500\n: keepalive\nevent: token\nid: 7\ndata: {\"a\":\ndata: 1}\n\ndata: x\r\n\r\nid: 9\ndata: tail-without-blank-line"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-decode-\(UUID()).sse")
        try Data(stream.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = ["decode", "--events", "--comments", file.path]
        if let chunkSize { arguments += ["--chunk-size", String(chunkSize)] }
        let result = try await CadenceBinary.run(arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"retry":1500}"#,
                #"{"comment":"keepalive"}"#,
                #"{"event":"token","data":"{\"a\":\n1}","id":"7"}"#,
                #"{"event":"message","data":"x","id":"7"}"#,
            ])
    }

    @Test("decode --events reads standard input")
    func decodeStdin() async throws {
        let result = try await CadenceBinary.run(["decode", "--events", "-"], stdin: Data("data: hi\n\n".utf8))
        #expect(result.stdout == "{\"event\":\"message\",\"data\":\"hi\",\"id\":\"\"}\n")
    }

    @Test("a decoder error goes to stderr with exit code 1, after the events before it")
    func decodeError() async throws {
        let stream = "data: ok\n\ndata: " + String(repeating: "x", count: 200)
        let result = try await CadenceBinary.run(
            ["decode", "--events", "--max-line-bytes", "64", "-"], stdin: Data(stream.utf8))
        #expect(result.status == 1)
        #expect(result.stdout == "{\"event\":\"message\",\"data\":\"ok\",\"id\":\"\"}\n")
        #expect(result.stderr.contains("64"))
    }

    /// The limit error names the option that raises the limit (the command's user cannot change the
    /// library's `SSELimits`), and `--dialect` honours the same options as `--events`.
    @Test(
        "a limit error in decode names the option that raises it and the limit, not SSELimits",
        arguments: [
            (
                ["--events", "--max-line-bytes", "64"], "data: ok\n\ndata: " + String(repeating: "x", count: 200),
                "--max-line-bytes"
            ),
            (
                ["--events", "--max-event-bytes", "64"],
                "data: ok\n\n" + String(repeating: "data: " + String(repeating: "y", count: 30) + "\n", count: 4),
                "--max-event-bytes"
            ),
            (
                ["--dialect", "openai-chat", "--max-line-bytes", "64"],
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + String(repeating: "z", count: 200),
                "--max-line-bytes"
            ),
            (
                ["--dialect", "openai-chat", "--max-event-bytes", "64"],
                String(repeating: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"w\"}}]}\n", count: 3),
                "--max-event-bytes"
            ),
            (
                ["--dialect", "ollama", "--max-line-bytes", "64"],
                "{\"message\":{\"content\":\"" + String(repeating: "v", count: 200), "--max-line-bytes"
            ),
        ])
    func decodeLimitNamesTheOption(arguments: [String], stream: String, option: String) async throws {
        let result = try await CadenceBinary.run(["decode"] + arguments + ["-"], stdin: Data(stream.utf8))
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(option) && result.stderr.contains("64"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("SSELimits"), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test(
        "decode prints each event as it arrives, also into a pipe",
        arguments: [["--events"], ["--dialect", "openai-chat"]])
    func decodeStreamsIntoAPipe(mode: [String]) async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-decode-\(UUID()).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let decode = try RunningCommand.start(["decode"] + mode + [fifo])
        let writer = try #require(FileHandle(forWritingAtPath: fifo), "the command opened the FIFO")
        writer.write(Data("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"first\"}}]}\n\n".utf8))
        // The input stays open: the first event must come out before any more arrives.
        try await decode.waitUntil("the first event printed while the input is open") { stdout, _ in
            stdout.contains("first")
        }
        #expect(!decode.stdout.contains("second"))
        writer.write(Data("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"second\"}}]}\n\n".utf8))
        try writer.close()
        let result = try await decode.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("second"))
    }

    @Test(
        "serve refuses a port outside 0–65535 instead of binding another one",
        arguments: ["65536", "65537", "70000", "-1"])
    func servePortOutOfRange(port: String) async throws {
        // 65537 used to bind port 1, 70000 port 4464 and 65536 a random free port.
        let result = try await CadenceBinary.run(["serve", "--port=\(port)"])
        #expect(result.status == 64, "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing listened")
        #expect(result.stderr.contains("--port"), "stderr: \(result.stderr)")
    }

    @Test(
        "an empty question or a URL that is not a server's is a usage error (64), asked of nobody and saved nowhere",
        arguments: [
            (["ask", "--url", "http://127.0.0.1:9", ""], "the question is empty"),
            (["ask", "--url", "http://127.0.0.1:9", " \n "], "the question is empty"),
            (["demo", "--plain", "--question", "  "], "--question is empty"),
            (["ask", "--url", "notaurl", "question"], "--url notaurl is not a server's URL"),
            (["ask", "--url", "ftp://example.com", "question"], "is not a server's URL"),
            (["chat", "--url", "http://", "--plain"], "is not a server's URL"),
            (["demo", "--plain", "--url", "127.0.0.1:8080"], "is not a server's URL"),
        ])
    func emptyQuestionsAndBadURLsAreUsageErrors(arguments: [String], says: String) async throws {
        // Before, the question went to the server (400, exit 1) and was saved as a failed
        // conversation; a bad URL failed only when the connection did.
        let result = try await CadenceBinary.run(arguments)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(says), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

@Suite("The cadence command with model providers")
struct ProviderCommandTests {
    @Test("decode --dialect auto turns every captured provider stream into its expected text")
    func decodeDialectAuto() async throws {
        for entry in try SharedFixtures.index() {
            let file = try #require(entry["file"]?.stringValue)
            let bytes = try SharedFixtures.streamBytes(file)
            for chunkSize in [nil, 5] as [Int?] {
                var arguments = ["decode", "--dialect", "auto", "-"]
                if let chunkSize { arguments += ["--chunk-size", String(chunkSize)] }
                let result = try await CadenceBinary.run(arguments, stdin: Data(bytes))
                #expect(result.status == 0, "\(file): \(result.stderr)")
                let events = try result.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
                let text = events.filter { $0["kind"] == "text" && ($0["choice"]?.intValue ?? 0) == 0 }
                    .compactMap { $0["text"]?.stringValue }.joined()
                #expect(text == (try SharedFixtures.expectedText(file)), "\(file) at chunk size \(String(describing: chunkSize))")
                #expect(events.contains { $0["kind"] == "finish" }, "\(file) has a finish event")
            }
        }
    }

    @Test("decode with another provider's dialect warns which dialect the input looks like; its own does not")
    func decodeWrongDialect() async throws {
        // Before, an Anthropic capture read as OpenAI Chat printed an empty usage and a `truncated`
        // finish, exit 0, and nothing said why.
        let anthropic = try SharedFixtures.streamBytes("anthropic-basic-text.txt")
        let wrong = try await CadenceBinary.run(["decode", "--dialect", "openai-chat", "-"], stdin: Data(anthropic))
        #expect(wrong.status == 0, "the events it printed are what was asked: \(wrong.stderr)")
        #expect(
            wrong.stderr.contains("nothing decoded as openai-chat; the input looks like the anthropic dialect"),
            "stderr: \(wrong.stderr)")
        for entry in try SharedFixtures.index() {
            let file = try #require(entry["file"]?.stringValue)
            let bytes = try SharedFixtures.streamBytes(file)
            let dialect = try #require(ModelDialect.detect(bytes, isComplete: true), "\(file)")
            let result = try await CadenceBinary.run(["decode", "--dialect", dialect.rawValue, "-"], stdin: Data(bytes))
            #expect(result.status == 0 && result.stderr.isEmpty, "\(file) as \(dialect.rawValue): \(result.stderr)")
        }
    }

    @Test("decode --dialect auto that cannot tell the dialect exits 1 and says how to name it")
    func undetectableDialect() async throws {
        // Before, it printed the unknown_dialect error as an event and exited 0, as if decoding had worked.
        let short = Data("data: {\"hello\": 1}\n\n".utf8)
        let long = Data(("data: {\"x\": \"" + String(repeating: "y", count: 100_000) + "\"}\n\n").utf8)
        for input in [short, long] {
            let result = try await CadenceBinary.run(["decode", "--dialect", "auto", "-"], stdin: input)
            #expect(result.status == 1, "\(input.count) bytes: stderr \(result.stderr)")
            #expect(result.stdout.contains("unknown_dialect"), "the error event is still printed: \(result.stdout)")
            #expect(
                result.stderr.contains("cadence decode: unknown_dialect: could not tell the stream's dialect")
                    && result.stderr.contains("--dialect NAME"),
                "stderr: \(result.stderr)")
        }
    }

    @Test("decode --dialect names an unknown dialect clearly")
    func unknownDialect() async throws {
        let result = try await CadenceBinary.run(["decode", "--dialect", "telepathy", "-"], stdin: Data())
        #expect(result.status != 0)
        #expect(result.stderr.contains("telepathy"))
    }

    @Test(
        "ask --provider streams a loopback replay of each provider, without printing the key",
        arguments: ProviderReplayCase.all)
    func askProvider(testCase: ProviderReplayCase) async throws {
        try await testCase.withReplayServer { server in
            let result = try await CadenceBinary.run(
                [
                    "ask", "--provider", testCase.kind.rawValue, "--base-url", server.baseURL + testCase.basePath,
                    "--model", "test-model", "--plain", "Hello?",
                ],
                environment: ["OPENAI_API_KEY": "sk-from-env", "ANTHROPIC_API_KEY": "sk-from-env", "GEMINI_API_KEY": "sk-from-env"])
            let expected = try SharedFixtures.expectedText(testCase.fixture)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.trimmingCharacters(in: .newlines) == expected.trimmingCharacters(in: .newlines))
            #expect(!(result.stdout + result.stderr).contains("sk-from-env"))
            if testCase.kind != .ollama {
                #expect(server.requests.first?.headers.values.contains { $0.contains("sk-from-env") } == true)
            }
        }
    }

    @Test("ask --provider fails with the provider's message and a non-zero exit on an HTTP error")
    func askProviderError() async throws {
        let server = try await ReplayServer.start(routes: [
            "/v1/chat/completions": [.status(401, body: #"{"error":{"message":"Incorrect API key provided"}}"#)]
        ])
        defer { Task { await server.shutdown() } }
        let result = try await CadenceBinary.run([
            "ask", "--provider", "openai", "--base-url", server.baseURL + "/v1", "--model", "m", "--api-key", "sk-x", "Hi",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("401"))
        #expect(result.stderr.contains("Incorrect API key provided"))
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test("ask --provider: a provider line past the decoder's limit fails in the command's words, not SSELimits")
    func askProviderOversizedLine() async throws {
        let opening = Array(#"data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}"#.utf8) + [10, 10]
        let runaway = Array("data: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 17 << 20)
        let server = try await ScriptedModelServer.start { _, _ in .raw(opening + runaway) }
        defer { Task { await server.shutdown() } }
        let result = try await CadenceBinary.run([
            "ask", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "--api-key", "sk-x",
            "--no-history", "Hi",
        ])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("Hello"))
        #expect(!result.stderr.contains("SSELimits"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--base-url"), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test(
        "ask --provider says how a model's answer ended: a note for the token limit (exit 0), a cut stream fails (exit 1)",
        arguments: [
            (ScriptedModelServer.Reply.text(["Half a sen", "tence"], finishReason: "length"), Int32(0),
             "note: the answer was cut at the token limit"),
            (.text(["Calling"], finishReason: "tool_calls"), 0, "note: the model asked to call a tool"),
            (.truncated(["Half a sen", "tence"]), 1, "the stream ended before the provider finished (15 characters received)"),
            (.text(["Half a sen", "tence"]), 0, ""),
        ] as [(ScriptedModelServer.Reply, Int32, String)])
    func askProviderEnding(reply: ScriptedModelServer.Reply, status: Int32, stderr: String) async throws {
        let model = try await ScriptedModelServer.start { _, _ in reply }
        defer { Task { await model.shutdown() } }
        let result = try await CadenceBinary.run([
            "ask", "--provider", "openai", "--base-url", model.baseURL, "--model", "m", "--no-history", "Hi",
        ])
        #expect(result.status == status, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix(status == 0 && stderr.contains("tool") ? "Calling" : "Half a sentence"))
        #expect(result.stdout.hasSuffix("\n"))
        if stderr.isEmpty {
            #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        } else {
            #expect(result.stderr.contains(stderr), "stderr: \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    @Test("chat keeps the conversation history across questions")
    func chatHistory() async throws {
        let bytes = try SharedFixtures.streamBytes("openai-chat-basic-usage.txt")
        let server = try await ReplayServer.start(routes: ["/v1/chat/completions": [.stream(bytes)]])
        defer { Task { await server.shutdown() } }
        let result = try await CadenceBinary.run(
            ["chat", "--provider", "openai", "--base-url", server.baseURL + "/v1", "--model", "m"],
            stdin: Data("first question\nsecond question\n".utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(server.requests.count == 2)
        let second = try JSONValue(parsing: try #require(server.requests.last?.body))
        let contents = second["messages"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
        #expect(contents == ["first question", try SharedFixtures.expectedText("openai-chat-basic-usage.txt"), "second question"])
    }
}
