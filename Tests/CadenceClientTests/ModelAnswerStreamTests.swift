import CadenceClient
import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import NIOConcurrencyHelpers
import Testing

/// The one path for a model's answer: a real ModelClient against a real loopback model server, read
/// as the AnswerUpdates the command and the view models consume.
@Suite("A model's answer as AnswerUpdates")
struct ModelAnswerStreamTests {
    /// A client of a scripted model that gives every request `reply`.
    static func start(_ reply: ScriptedModelServer.Reply) async throws -> (ModelClient, ScriptedModelServer) {
        let model = try await ScriptedModelServer.start { _, _ in reply }
        return (ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "m")), model)
    }

    /// The updates of the answer to "Hi" when the model gives `reply`.
    static func answer(_ reply: ScriptedModelServer.Reply) async throws -> [AnswerUpdate] {
        let (client, model) = try await start(reply)
        defer { Task { await model.shutdown() } }
        return await collectUpdates(client.answer([ChatTurn(role: "user", content: "Hi")]))
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
        let completion = try #require(updates.last?.completion, "not completed: \(updates)")
        #expect(completion.text == "Half an" && completion.finishReason == .length)
    }

    @Test("a stream cut before the provider's terminator fails as interrupted, keeping its text")
    func truncated() async throws {
        let updates = try await Self.answer(.truncated(["Partial ", "text"]))
        let failure = try #require(updates.last?.failure, "not failed: \(updates)")
        #expect(failure.code == .interrupted)
        #expect(failure.partialText == "Partial text" && updates.text == "Partial text")
        #expect(failure.message.contains("ended before the provider finished"))
    }

    @Test("an error mid-stream fails the answer with the provider's message and the text so far")
    func errorMidStream() async throws {
        let updates = try await Self.answer(.errorMidStream(["Some "], message: "the model overheated"))
        let failure = try #require(updates.last?.failure, "not failed: \(updates)")
        #expect(failure.code == .connection)
        #expect(failure.message.contains("the model overheated") && failure.partialText == "Some ")
    }

    @Test("a refused request fails at once with the provider's status and message")
    func refused() async throws {
        let updates = try await Self.answer(.status(401, message: "Incorrect API key provided"))
        #expect(updates.count == 1)
        let failure = try #require(updates.last?.failure, "not failed: \(updates)")
        #expect(failure.message.contains("401") && failure.message.contains("Incorrect API key provided"))
        #expect(failure.partialText == "")
    }

    @Test("reasoning reaches its handler in order with the text, and is not part of the answer")
    func reasoning() async throws {
        let fixture = "deepseek-reasoning-content.txt"
        let (client, model) = try await Self.start(.raw(try SharedFixtures.streamBytes(fixture)))
        defer { Task { await model.shutdown() } }
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
        #expect(firstText > 10 && order[..<firstText].allSatisfy { $0.hasPrefix("r") }, "reasoning first: \(order.prefix(5))")
        #expect(!order[firstText...].contains { $0.hasPrefix("r") && $0.count > 1 }, "then the text")
        #expect(updates.text == (try SharedFixtures.expectedText(fixture)))
        #expect(updates.last?.completion?.text == updates.text)
    }

    @Test("cancelling the reading task ends the answer as cancelled, with the text received")
    func cancelled() async throws {
        let (client, model) = try await Self.start(.silent(["Before the stall."]))
        defer { Task { await model.shutdown() } }
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
