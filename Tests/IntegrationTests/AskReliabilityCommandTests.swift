import CadenceCore
import CadenceTesting
import Foundation
import Testing

@Suite("cadence ask through the reliability engine")
struct AskReliabilityCommandTests {
    @Test("after a dropped connection, plain ask prints the answer text exactly once")
    func printsTextOnceAfterReconnecting() async throws {
        let script = FaultScript.answer(text: "Résumé: streams break — and the reader never pays for it. 🧑‍🚀", tokenCharacters: 2)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(.closeAfter(bytes: script.frames(after: 0).frameEnds[6] + 3), .status(503))
        let result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--plain", "question"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix(script.text + "\n"))
        #expect(result.stdout.components(separatedBy: "streams break").count == 2, "the text appears once")
        #expect(result.stdout.contains("[1] Fault injection"))
        #expect(result.stderr.contains("reconnecting"))
    }

    @Test("a failure prints the partial text, then exits non-zero with one line on stderr")
    func failureKeepsPartialText() async throws {
        let script = FaultScript.answer(text: "Partial answers survive a failed resume.", tokenCharacters: 5)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        let cut = script.frames(after: 0).frameEnds[5]
        server.enqueue(.closeAfter(bytes: cut), .status(400))
        let result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--plain", "--retries", "2", "question"])
        #expect(result.status == 1)
        #expect(!result.stdout.isEmpty)
        #expect(script.text.hasPrefix(result.stdout.components(separatedBy: "\n").first ?? "x"))
        let errorLines = result.stderr.split(separator: "\n").filter { !$0.contains("reconnecting") }
        #expect(errorLines.count == 1, "stderr: \(result.stderr)")
        #expect(errorLines.first?.contains("400") == true)
    }

    /// The library's limit message tells its reader to raise `SSELimits`, which no `ask` user can do;
    /// the command says what the server did and what to check instead.
    @Test("a server line past the decoder's limit fails in the command's own words, keeping the partial text")
    func oversizedLineNamesNoLibraryType() async throws {
        let script = FaultScript.answer(text: "Partial text before a runaway line.", tokenCharacters: 5)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        let runaway = [UInt8](repeating: UInt8(ascii: "x"), count: 17 << 20)
        server.enqueue(.garbage(atByte: script.frames(after: 0).frameEnds[4], bytes: runaway))
        let result = try await CadenceBinary.run([
            "ask", "--url", server.baseURL, "--plain", "--no-history", "question",
        ])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("Partial te"), "the two tokens before the line: \(result.stdout)")
        let errorLines = result.stderr.split(separator: "\n").filter { !$0.contains("reconnecting") }
        #expect(errorLines.count == 1, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("SSELimits"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("16778240") && result.stderr.contains("--url"), "stderr: \(result.stderr)")
    }

    @Test("ask works over every transport", arguments: ["sse", "websocket", "polling"])
    func everyTransport(transport: String) async throws {
        try await withServer { server in
            let result = try await CadenceBinary.run([
                "ask", "--url", server.baseURL, "--transport", transport, "--plain", "What is BM25?",
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("BM25"))
            #expect(result.stdout.contains("\nSources\n"))
        }
    }

    @Test("a server that is down fails the answer with the refused connection, not a timeout")
    func serverDown() async throws {
        let server = try await FaultServer.start(script: .answer(text: "never sent", tokenCharacters: 5))
        let closedURL = server.baseURL
        await server.shutdown()
        // Each attempt used to wait out the client's 30 s connect deadline, so the first-token
        // timeout ended the answer first, saying the server "sent no text".
        let result = try await CadenceBinary.run([
            "ask", "--url", closedURL, "--plain", "--retries", "2", "--first-token-timeout", "10s", "question",
        ])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("after 2 attempts"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("Connection refused"), "stderr: \(result.stderr)")
        // In the system's words, not NIO's "connection reset (error set): Connection refused) (errno: 111)".
        #expect(!result.stderr.contains("errno") && !result.stderr.contains("reset"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("timeout"), "stderr: \(result.stderr)")
    }

    @Test("bad reliability settings are refused with a clear message")
    func validation() async throws {
        let result = try await CadenceBinary.run(["ask", "--url", "http://127.0.0.1:1", "--timeout", "0", "q"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--timeout"))
    }
}
