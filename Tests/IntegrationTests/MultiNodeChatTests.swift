import CadenceTesting
import Testing

/// The chat engine on two `cadence serve --engine chat --postgres URL` nodes: a model's answer that
/// one node relays is read on the other, and a reader there is told when the relaying node dies.
/// The model is a scripted loopback server whose tokens the test releases one by one on its clock.
@Suite("Multi-node: a chat answer shared through PostgreSQL", .serialized, .needsPostgres)
struct MultiNodeChatTests {
    static let tokens = ["Grüße ", "aus ", "Köln ", "🎉, ", "naïve ", "café."]

    /// The model, writing one of ``tokens`` each second of `clock`.
    static func slowModel(_ clock: ManualClock) async throws -> ScriptedModelServer {
        try await ScriptedModelServer.start(clock: clock) { _, _ in .slow(Self.tokens, interval: .seconds(1)) }
    }

    static func chatArguments(_ model: ScriptedModelServer) -> [String] {
        ["--engine", "chat", "--provider", "openai", "--base-url", model.baseURL, "--model", "scripted"]
    }

    /// Lets the model write its tokens `from`…`through` (1-based), one tick of its clock each.
    static func release(_ clock: ManualClock, tokens range: ClosedRange<Int>) async {
        for second in range {
            await clock.waitForSleep(until: .seconds(second))
            clock.advance(by: .seconds(1))
        }
    }

    @Test("started on one node, resumed on the other mid-answer: the rest arrives exactly, as the model wrote it")
    func resumeOnAnotherNode() async throws {
        let clock = ManualClock()
        let model = try await Self.slowModel(clock)
        defer { Task { await model.shutdown() } }
        let cluster = try await NodeCluster.start(nodes: 2, arguments: Self.chatArguments(model))
        defer { cluster.stop() }
        let (a, b) = (cluster.nodes[0].baseURL, cluster.nodes[1].baseURL)

        // The client asks node A and leaves after two tokens; the model has written no more.
        let asking = Task { try await AnswerClient.ask(a, query: "Say hello", stop: .when { $0.tokenCount >= 2 }) }
        await Self.release(clock, tokens: 1...2)
        let first = try await asking.value
        #expect(first.text == Self.tokens.prefix(2).joined(), "\(cluster.logs)")

        // It comes back on node B while the answer is still being written on A.
        let resuming = Task { try await AnswerClient.resume(b, answerID: first.answerID, after: first.lastSequence) }
        await Self.release(clock, tokens: 3...Self.tokens.count)
        let rest = try await resuming.value
        #expect(rest.endsWithComplete, "\(rest.events.last as Any)\n\(cluster.logs)")
        #expect(first.text + rest.text == Self.tokens.joined())
        #expect(first.sequences + rest.sequences == numbered(first.events.count + rest.events.count))
        guard case .complete(let completion)? = rest.events.last?.kind else { return }
        #expect(completion.metadata["engine"] == "chat")
        #expect(completion.metadata["model"] == "scripted")
        #expect(completion.metadata["usage"]?["output_tokens"] == 20)
        #expect(model.requests.count == 1, "one model call, however many nodes read it")
    }

    @Test("kill -9 of the relaying node: a reader on the other ends with interrupted, its text intact")
    func killTheOwner() async throws {
        let clock = ManualClock()
        let model = try await Self.slowModel(clock)
        defer { Task { await model.shutdown() } }
        let cluster = try await NodeCluster.start(
            nodes: 2, arguments: Self.chatArguments(model) + ["--lease-timeout", "2"])
        defer { cluster.stop() }
        let (owner, other) = (cluster.nodes[0], cluster.nodes[1])

        let (id, asker, producing) = try await MultiNodeFailureTests.startAnswer(on: owner.baseURL, openingAfter: 2)
        _ = asker
        await Self.release(clock, tokens: 1...2)
        let following = MultiNodeFailureTests.readers(1, on: other.baseURL, answerID: id, openingAfter: 2)
        try await MultiNodeFailureTests.midStream([producing] + following.midStream)
        owner.kill9()

        let reader = try await following.readers[0].value
        #expect(reader.ending == .serverClosed, "the stream ends cleanly after the error event")
        #expect(reader.errorCode == "interrupted", "\(reader.events.last as Any)\n\(cluster.logs)")
        #expect(reader.text == Self.tokens.prefix(2).joined(), "the text the model wrote before the kill")
        #expect(reader.sequences == numbered(reader.events.count))
    }
}
