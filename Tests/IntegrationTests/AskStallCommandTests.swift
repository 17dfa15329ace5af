import CadenceCore
import CadenceStore
import CadenceTesting
import Foundation
import Testing

/// `cadence ask` through connections that stall mid-answer, and the exit status of every ending,
/// on the built binary against a fault-injecting server.
@Suite("cadence ask: stalls resume, and the exit status says how the answer ended")
struct AskStallCommandTests {
    static let script = FaultScript.answer(
        text: "A stalled proxy must not cost the reader the rest of the answer — ça va?", tokenCharacters: 4)

    /// The byte offset after the script's first `tokens` tokens (three research events come first).
    static func stallPoint(afterTokens tokens: Int) -> Int { script.frames(after: 0).frameEnds[3 + tokens - 1] }

    /// Runs `body` with a fault server on ``script`` and a gate for the stalls it is told to make; opens
    /// the gate and shuts the server down after.
    static func withStallingServer(_ body: (FaultServer, FaultGate) async throws -> Void) async throws {
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        let gate = FaultGate()
        defer { gate.release() }
        try await body(server, gate)
    }

    @Test(
        "a stall mid-answer, with keepalives or silent, resumes and prints exactly the server's answer",
        arguments: [true, false])
    func stallResumes(keepalives: Bool) async throws {
        try await Self.withStallingServer { server, gate in
            server.enqueue(.stall(afterBytes: Self.stallPoint(afterTokens: 2), gate: gate, keepalives: keepalives))
            let result = try await CadenceBinary.run([
                "ask", "--url", server.baseURL, "--plain", "--no-history", "--idle-timeout", "1s", "question",
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.hasPrefix(Self.script.text + "\n"), "stdout: \(result.stdout)")
            #expect(result.stdout.components(separatedBy: "ça va?").count == 2, "the text appears once")
            #expect(result.stderr.contains("reconnecting"))
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests.last?.lastEventID == 5, "the resume starts after the last event printed")
        }
    }

    @Test("through a proxy that freezes mid-answer in front of the real server, ask prints exactly the server's answer")
    func frozenProxyResumes() async throws {
        try await withServer { server in
            let question = "How does Cadence resume an interrupted stream without losing text?"
            let direct = try await CadenceBinary.run([
                "ask", "--url", server.baseURL, "--plain", "--no-history", question,
            ])
            #expect(direct.status == 0, "stderr: \(direct.stderr)")
            let proxy = try StallProxy.start(upstreamPort: server.port)
            defer { proxy.shutdown() }
            proxy.freeze(afterResponseBytes: 2_000)
            let proxied = try await CadenceBinary.run([
                "ask", "--url", proxy.baseURL, "--plain", "--no-history", "--idle-timeout", "1s", question,
            ])
            #expect(proxied.status == 0, "stderr: \(proxied.stderr)")
            #expect(proxy.frozenConnections == 1)
            #expect(proxied.stderr.contains("reconnecting"), "the freeze landed mid-answer: \(proxied.stderr)")
            #expect(proxied.stdout == direct.stdout)
        }
    }

    @Test("a silent connection is resumed by the connection idle timeout, well before the content idle timeout")
    func connectionIdleResumes() async throws {
        try await Self.withStallingServer { server, gate in
            server.enqueue(.stall(afterBytes: Self.stallPoint(afterTokens: 1), gate: gate))
            let result = try await CadenceBinary.run([
                "ask", "--url", server.baseURL, "--plain", "--no-history", "--idle-timeout", "2m",
                "--connection-idle-timeout", "500ms", "question",
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.hasPrefix(Self.script.text + "\n"))
            #expect(server.requests.last?.lastEventID == 4)
        }
    }

    @Test("when the resumed stream stalls too, ask exits 124 with a prefix of the answer printed")
    func stuckServerTimesOut() async throws {
        let server = try await FaultServer.start(script: Self.script)
        defer { Task { await server.shutdown() } }
        let (first, second) = (FaultGate(), FaultGate())
        defer {
            first.release()
            second.release()
        }
        server.enqueue(
            .stall(afterBytes: Self.stallPoint(afterTokens: 2), gate: first, keepalives: true),
            .stall(afterBytes: 0, gate: second, keepalives: true))
        let result = try await CadenceBinary.run([
            "ask", "--url", server.baseURL, "--plain", "--no-history", "--idle-timeout", "700ms", "question",
        ])
        #expect(result.status == 124, "stderr: \(result.stderr)")
        let printed = result.stdout.components(separatedBy: "\n").first ?? ""
        #expect(
            !printed.isEmpty && Self.script.text.hasPrefix(printed) && printed != Self.script.text,
            "stdout: \(result.stdout)")
        let notes = result.stderr.split(separator: "\n").filter {
            !$0.contains("reconnecting") && !$0.contains("Reconnected")
        }
        #expect(notes.count == 1, "one line on stderr: \(result.stderr)")
        #expect(notes.first?.contains("timed out (idle timeout)") == true)
        #expect(server.requests.count == 2, "resumed once, then gave up")
    }

    @Test("chat --plain exits with the worst ending of its answers: a timed-out one gives 124")
    func chatPlainExitStatus() async throws {
        try await Self.withStallingServer { server, gate in
            // The first question completes; the second times out (its stream and its resume stall).
            server.enqueue(
                .none, .stall(afterBytes: Self.stallPoint(afterTokens: 2), gate: gate),
                .stall(afterBytes: 0, gate: gate))
            let result = try await CadenceBinary.run(
                ["chat", "--url", server.baseURL, "--plain", "--no-history", "--idle-timeout", "500ms"],
                stdin: Data("first\nsecond\n".utf8))
            #expect(result.status == 124, "stderr: \(result.stderr)")
            #expect(result.stdout.hasPrefix(Self.script.text + "\n"))
        }
    }

    @Test("Ctrl-C cancels the answer: what arrived is printed and saved as cancelled, and ask exits 130")
    func controlCCancels() async throws {
        // Not through withStallingServer: in a closure, this body crashes Swift 6.3.1's SendNonSendable pass.
        let server = try await FaultServer.start(script: Self.script)
        defer { Task { await server.shutdown() } }
        let gate = FaultGate()
        defer { gate.release() }
        server.enqueue(.stall(afterBytes: Self.stallPoint(afterTokens: 4), gate: gate, keepalives: true))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cadence-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("history.sqlite").path
        let child = try RunningBinary([
            "ask", "--url", server.baseURL, "--plain", "--database", database, "--checkpoint-interval-ms", "0",
            "question",
        ])
        let shown = String(Self.script.text.prefix(16))
        #expect(await child.read { $0.hasPrefix(shown) })
        await gate.reached.wait()
        let status = await child.interrupt()
        #expect(status == 130)
        _ = await child.read { _ in false }  // the rest of its output: the text's end, then the sources
        let printed = child.stdout.components(separatedBy: "\n").first ?? ""
        #expect(printed.hasPrefix(shown) && Self.script.text.hasPrefix(printed) && printed != Self.script.text)

        let store = try SQLiteConversationStore(path: database)
        let summary = try #require(try await store.conversations().first)
        let answer = try #require(try await store.conversation(summary.id)?.answers.first)
        #expect(answer.state == .cancelled)
        #expect(answer.text == printed)
    }

    @Test("Ctrl-C in ask cancels the answer on the server too, before ask exits")
    func controlCCancelsOnTheServer() async throws {
        // A server's answer outlives a reader who merely disconnects (it can be resumed), so only the
        // `DELETE` that Ctrl-C sends stops the engine: ask must not exit before that request is made.
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("Partial "))
            let child = try RunningBinary(["ask", "--url", server.baseURL, "--plain", "--no-history", "question"])
            #expect(await child.read { $0.hasPrefix("Partial") })
            #expect(await child.interrupt() == 130)
            #expect(
                await engine.isCancelled(), "the server's engine was not cancelled: ask exited without cancelling the answer")
        }
    }

    @Test("a reader that closes the output (| head) cancels the answer, on the server too, and ask exits 141")
    func closedOutputCancels() async throws {
        // Before, ask went on streaming (and a model went on writing, and billing) to a closed pipe,
        // and exited 0 as if the answer had been read.
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(.token("Partial "))
            let process = Process()
            process.executableURL = CadenceBinary.url
            process.arguments = ["ask", "--url", server.baseURL, "--plain", "--no-history", "question"]
            process.environment = ProcessInfo.processInfo.environment.merging(CadenceBinary.isolatedHistory) { $1 }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let watchdog = CadenceBinary.killIfHung(process)
            defer { watchdog.cancel() }
            // Read until the first text arrives, then close the pipe as `head` does when it has enough.
            let read = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                Thread.detachNewThread {
                    var text = ""
                    while !text.contains("Partial") {
                        let data = out.fileHandleForReading.availableData
                        if data.isEmpty { break }
                        text += String(decoding: data, as: UTF8.self)
                    }
                    try? out.fileHandleForReading.close()
                    continuation.resume(returning: text)
                }
            }
            #expect(read.contains("Partial"))
            engine.push(.token("more text nobody reads "))  // its write finds the pipe closed
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    process.waitUntilExit()
                    continuation.resume()
                }
            }
            #expect(process.terminationReason == .exit && process.terminationStatus == 141)
            #expect(await engine.isCancelled(), "the server's engine was not cancelled")
        }
    }

    @Test("escape codes in an answer, its sources and follow-ups print as symbols, not as commands to the terminal")
    func escapeCodesAreShownNotObeyed() async throws {
        // Clear the screen, retitle the window, write the clipboard (OSC 52): a model or a page it
        // read can put any of these in the text.
        let hostile = "\u{1B}[2J\u{1B}]0;PWNED\u{07}\u{1B}]52;c;aGk=\u{07}"
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            engine.push(
                .token("Hello \(hostile) world [1]."),
                .complete(
                    Completion(
                        sources: [Source(id: "1", title: "Title \(hostile)", url: "https://example.com/")],
                        followUps: ["More \(hostile)?"])))
            engine.finish()
            // Into a pipe, without --plain: the sources and the follow-up questions print too.
            let result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--no-history", "question"])
            #expect(result.status == 0, "\(result.stderr)")
            let printed = result.stdout + result.stderr
            #expect(!printed.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(printed.debugDescription)")
            for shown in ["Hello ␛[2J␛]0;PWNED␇␛]52;c;aGk=␇ world", "Title ␛[2J", "More ␛[2J"] {
                #expect(result.stdout.contains(shown), "\(result.stdout)")
            }
        }
    }

    @Test("Ctrl-C in demo --plain cancels the answer and exits 130")
    func demoControlC() async throws {
        let child = try RunningBinary(["demo", "--plain", "--engine-delay-ms", "50"])
        #expect(await child.read { $0.count >= 3 })
        #expect(await child.interrupt() == 130)
    }

    @Test(
        "durations take units: 30, 30s, 2m, 500ms; nonsense is a usage error (64)",
        arguments: [
            ("1.5", 0), ("30s", 0), ("2m", 0), ("500ms", 0), ("1h", 0), ("8760h", 0), ("0", 64), ("ten", 64), ("5x", 64),
            ("-1s", 64), ("8761h", 64), ("10000000000", 64),
        ])
    func durations(value: String, status: Int32) async throws {
        let server = try await FaultServer.start(script: Self.script)
        defer { Task { await server.shutdown() } }
        let result = try await CadenceBinary.run([
            "ask", "--url", server.baseURL, "--plain", "--no-history", "--timeout", value, "question",
        ])
        if status == 64 {
            #expect(result.status == 64, "--timeout \(value): \(result.stderr)")
            #expect(result.stderr.contains("--timeout"))
        } else {
            // Accepted: the answer runs. Not required to complete: on a loaded machine (the tests
            // run in parallel) 500 ms can pass before the answer does, and that ending is the
            // value at work.
            #expect(result.status != 64 && !result.stderr.contains("--timeout"), "--timeout \(value): \(result.stderr)")
        }
    }

    @Test("--help documents the exit status of ask, chat and demo", arguments: ["ask", "chat", "demo"])
    func helpDocumentsExitStatus(command: String) async throws {
        let result = try await CadenceBinary.run([command, "--help"])
        #expect(result.status == 0)
        let help = result.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for phrase in [
            "0 the answer completed", "1 it failed", "64 usage error", "124 a timeout", "130 cancelled with Ctrl-C",
        ] {
            #expect(help.contains(phrase), "\(command) --help lacks “\(phrase)”")
        }
    }
}

extension RunningBinary {
    /// Presses Ctrl-C (SIGINT), then waits for the process to exit and returns its exit status, or
    /// `nil` when the signal killed it (a shell would show 130 then too, but nothing was saved or said).
    func interrupt() async -> Int32? {
        kill(process.processIdentifier, SIGINT)
        await exited()
        return process.terminationReason == .uncaughtSignal ? nil : process.terminationStatus
    }
}
