import CadenceCore
import CadenceEngine
import CadenceStore
import CadenceTesting
import Foundation
import Testing

/// An engine that answers every question with the same events, as a chat model relayed by the
/// server would: reasoning, text, a tool call, a refusal, then `complete`; no stages, no sources.
struct ChatScriptEngine: AnswerEngine {
    static let call = ToolCall(id: "call_1", name: "lookup", arguments: "{\"q\": \"sky\",\n \"n\": 2}")
    static let events: [ResearchEvent.Kind] = [
        .reasoning("The user asks "), .reasoning("about the sky."), .token("Rayleigh "), .token("scattering."),
        .toolCall(call), .refusal("I won't "), .refusal("guess colours."),
        .complete(Completion(metadata: ["model": "scripted"])),
    ]

    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        AsyncThrowingStream { continuation in
            for event in Self.events { continuation.yield(event) }
            continuation.finish()
        }
    }
}

/// `cadence ask --url` against a server whose answers are a chat model's: the built binary, a real
/// server on loopback.
@Suite("cadence ask against a chat server")
struct ChatClientCommandTests {
    @Test("--json has reasoning, refusal and tool_call lines, and the completion carries them whole")
    func json() async throws {
        try await withServer(engine: ChatScriptEngine()) { server in
            let result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--json", "--no-history", "Why?"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let objects = try result.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
            let types = objects.compactMap { $0["type"]?.stringValue }
            #expect(types == ["reasoning", "reasoning", "text", "text", "tool_call", "refusal", "refusal", "completed"])
            let completed = try #require(objects.last)
            #expect(completed["reasoning"] == "The user asks about the sky.")
            #expect(completed["refusal"] == "I won't guess colours.")
            #expect(completed["text"] == "Rayleigh scattering.")
            #expect(completed["tool_calls"] == .array([ChatScriptEngine.call.json]))
        }
    }

    @Test("--plain prints the answer text alone; the refusal and tool calls go to stderr")
    func plain() async throws {
        try await withServer(engine: ChatScriptEngine()) { server in
            let result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--plain", "--no-history", "Why?"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout == "Rayleigh scattering.\n")
            #expect(result.stderr.contains("refused: I won't guess colours."), "stderr: \(result.stderr)")
            #expect(result.stderr.contains("tool call: lookup {\"q\": \"sky\",  \"n\": 2}"), "stderr: \(result.stderr)")
        }
    }

    @Test("piped, the refusal is labelled and each tool call is one line; the reasoning is left out")
    func piped() async throws {
        try await withServer(engine: ChatScriptEngine()) { server in
            let result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--no-history", "Why?"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}"), "no escape codes off a terminal")
            #expect(!result.stdout.contains("about the sky"))
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.contains("tool call: lookup {\"q\": \"sky\",  \"n\": 2}"), "stdout: \(result.stdout)")
            #expect(lines.contains("refused: I won't guess colours."), "stdout: \(result.stdout)")
            let text = try #require(lines.firstIndex { $0.hasPrefix("Rayleigh scattering.") })
            let refusal = try #require(lines.firstIndex { $0.hasPrefix("refused:") })
            #expect(text < refusal)
        }
    }

    @Test("chat saves the reasoning, refusal and tool calls with the answer in its history file")
    func chatKeepsThemInHistory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chatui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("history.sqlite").path
        try await withServer(engine: ChatScriptEngine()) { server in
            let session = try await CadenceBinary.run(
                ["chat", "--url", server.baseURL, "--database", database], stdin: Data("Why?\n".utf8))
            #expect(session.status == 0, "\(session.stderr)")
        }
        let store = try SQLiteConversationStore(path: database)
        let conversation = try #require(try await store.conversations().first)
        let answer = try #require(try await store.conversation(conversation.id)?.answers.first)
        #expect(answer.text == "Rayleigh scattering.")
        #expect(answer.reasoning == "The user asks about the sky.")
        #expect(answer.refusal == "I won't guess colours.")
        #expect(answer.toolCalls == [ChatScriptEngine.call])
    }
}

/// The same in a real terminal: the reasoning streams dimmed, then folds to one line when the text starts.
@Suite("cadence ask against a chat server, in a terminal", .enabled(if: TmuxSession.isAvailable, "needs tmux"))
struct ChatClientTerminalTests {
    @Test("reasoning shows dimmed while it streams, then folds to one line when the answer starts")
    func reasoningFolds() async throws {
        let engine = ScriptedEngine()
        try await withServer(engine: engine) { server in
            let command = "'\(CadenceBinary.url.path)' ask --url \(server.baseURL) --no-history Why?"
            let session = try TmuxSession(command: command, columns: 40, rows: 20)
            let reasoning = "Thinking about the sky, which is long enough to wrap over several rows here."
            engine.push(.reasoning(reasoning), .reasoning("\u{1B}[2J hostile"))
            #expect(await session.waitForOutput("\u{1B}[2mThinking about the sky"), "\(session.output.suffix(300))")
            #expect(await session.waitForScreen("the reasoning on screen") { $0.contains("several rows") })
            engine.push(.token("Blue light scatters most."), .complete(Completion()))
            engine.finish()
            #expect(await session.waitForOutput("CADENCE-EXIT=0"), "\(session.output.suffix(500))")
            let screen = try session.capture()
            #expect(screen.contains("▸ thought for "), "screen: \(screen)")
            #expect(screen.contains("Blue light scatters most."), "screen: \(screen)")
            #expect(!screen.contains("Thinking") && !screen.contains("several rows"), "folded away: \(screen)")
            #expect(!session.output.contains("\u{1B}[2J"), "the model's escape codes never reach the terminal")
        }
    }

    @Test("the full-screen chat shows the answer with its reasoning folded, the refusal and the tool call")
    func fullScreenChat() async throws {
        try await withServer(engine: ChatScriptEngine()) { server in
            let command = "'\(CadenceBinary.url.path)' chat --url \(server.baseURL) --no-history"
            let session = try TmuxSession(command: command, columns: 60, rows: 24)
            #expect(await session.waitForScreen("the prompt") { $0.contains("›") })
            try session.keys("Why?", "Enter")
            #expect(
                await session.waitForScreen("the finished answer") { $0.contains("refused: I won't guess colours.") },
                "\(session.output.suffix(500))")
            let screen = try session.capture()
            #expect(screen.contains("▸ thought for "), "screen: \(screen)")
            #expect(!screen.contains("about the sky"), "folded: \(screen)")
            #expect(screen.contains("Rayleigh scattering."), "screen: \(screen)")
            #expect(screen.contains("tool call: lookup {\"q\": \"sky\",  \"n\": 2}"), "screen: \(screen)")
            try session.keys("C-d")
            #expect(await session.waitForOutput("CADENCE-EXIT=0"))
        }
    }
}
