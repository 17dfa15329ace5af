import CadenceClient
import CadenceCore
import CadenceTesting
import NIOConcurrencyHelpers
import Testing

/// The one path for a model's answer: a real ModelClient against a real loopback model server, read
/// as the AnswerUpdates the command and the view models consume.
@Suite("A model's answer as AnswerUpdates")
struct ModelAnswerStreamTests {
    static func collect(_ stream: ModelAnswerStream) async -> [AnswerUpdate] {
        var updates: [AnswerUpdate] = []
        for await update in stream { updates.append(update) }
        return updates
    }

    static func text(of updates: [AnswerUpdate]) -> String {
        updates.reduce(into: "") { if case .textAppended(let piece) = $1 { $0 += piece } }
    }

    static func answer(_ reply: ScriptedModelServer.Reply) async throws -> [AnswerUpdate] {
        let model = try await ScriptedModelServer.start { _, _ in reply }
        defer { Task { await model.shutdown() } }
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "m"))
        return await collect(client.answer([ChatTurn(role: "user", content: "Hi")]))
    }

    @Test("a finished answer streams its text, then completes with it and the finish reason")
    func completes() async throws {
        let updates = try await Self.answer(.text(["Server-sent ", "events ", "stream."]))
        #expect(updates.dropLast() == [.textAppended("Server-sent "), .textAppended("events "), .textAppended("stream.")])
        #expect(updates.last == .completed(AnswerCompletion(reason: .completed, text: "Server-sent events stream.", finishReason: .stop)))
    }

    @Test("an answer cut at the token limit completes, saying why it stopped")
    func tokenLimit() async throws {
        let updates = try await Self.answer(.text(["Half an"], finishReason: "length"))
        guard case .completed(let completion) = updates.last else {
            Issue.record("not completed: \(updates)")
            return
        }
        #expect(completion.text == "Half an")
        #expect(completion.finishReason == .length)
    }

    @Test("a stream cut before the provider's terminator fails as interrupted, keeping its text")
    func truncated() async throws {
        let updates = try await Self.answer(.truncated(["Partial ", "text"]))
        guard case .failed(let failure) = updates.last else {
            Issue.record("not failed: \(updates)")
            return
        }
        #expect(failure.code == .interrupted)
        #expect(failure.partialText == "Partial text")
        #expect(failure.message.contains("ended before the provider finished"))
        #expect(Self.text(of: updates) == "Partial text")
    }

    @Test("an error mid-stream fails the answer with the provider's message and the text so far")
    func errorMidStream() async throws {
        let updates = try await Self.answer(.errorMidStream(["Some "], message: "the model overheated"))
        guard case .failed(let failure) = updates.last else {
            Issue.record("not failed: \(updates)")
            return
        }
        #expect(failure.code == .connection)
        #expect(failure.message.contains("the model overheated"))
        #expect(failure.partialText == "Some ")
    }

    @Test("a refused request fails at once with the provider's status and message")
    func refused() async throws {
        let updates = try await Self.answer(.status(401, message: "Incorrect API key provided"))
        guard case .failed(let failure) = updates.last, updates.count == 1 else {
            Issue.record("not a lone failure: \(updates)")
            return
        }
        #expect(failure.message.contains("401") && failure.message.contains("Incorrect API key provided"))
        #expect(failure.partialText == "")
    }

    @Test("reasoning reaches its handler in order with the text, and is not part of the answer")
    func reasoning() async throws {
        let bytes = try SharedFixtures.streamBytes("deepseek-reasoning-content.txt")
        let server = try await ReplayServer.start(routes: ["/v1/chat/completions": [.stream(bytes)]])
        defer { Task { await server.shutdown() } }
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: server.baseURL + "/v1", model: "m"))
        // What the reader sees, in order: reasoning as `r`, text as `t`.
        let seen = NIOLockedValueBox<[String]>([])
        var updates: [AnswerUpdate] = []
        for await update in client.answer([ChatTurn(role: "user", content: "Hi")], reasoning: { piece in
            seen.withLockedValue { $0.append("r" + piece) }
        }) {
            if case .textAppended(let piece) = update { seen.withLockedValue { $0.append("t" + piece) } }
            updates.append(update)
        }
        let order = seen.withLockedValue { $0 }
        let firstText = try #require(order.firstIndex { $0.hasPrefix("t") })
        #expect(firstText > 0 && order[..<firstText].allSatisfy { $0.hasPrefix("r") }, "reasoning first: \(order.prefix(5))")
        #expect(Self.text(of: updates) == (try SharedFixtures.expectedText("deepseek-reasoning-content.txt")))
        guard case .completed(let completion) = updates.last else {
            Issue.record("not completed: \(String(describing: updates.last))")
            return
        }
        #expect(completion.text == Self.text(of: updates))
    }

    @Test("cancelling the reading task ends the answer as cancelled, with the text received")
    func cancelled() async throws {
        let model = try await ScriptedModelServer.start { _, _ in .silent(["Before the stall."]) }
        defer { Task { await model.shutdown() } }
        let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "m"))
        let gotText = FaultLatch()
        let reader = Task {
            var updates: [AnswerUpdate] = []
            for await update in client.answer([ChatTurn(role: "user", content: "Hi")]) {
                updates.append(update)
                if case .textAppended = update { gotText.open() }
            }
            return updates
        }
        await gotText.wait()
        reader.cancel()
        let updates = await reader.value
        #expect(updates.last == .cancelled(partialText: "Before the stall."))
        #expect(updates.filter(\.isTerminal).count == 1)
        await model.waitUntilClosed(request: 0)
    }
}
