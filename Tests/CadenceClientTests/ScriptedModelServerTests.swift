import CadenceClient
import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Testing

/// The scripted model server, driven by the real `ModelClient` over loopback.
@Suite("Scripted model server")
struct ScriptedModelServerTests {
    static func client(_ server: ScriptedModelServer) -> ModelClient {
        ModelClient(provider: ModelProvider(kind: .openAI, baseURL: server.baseURL, model: "m", apiKey: "sk-test"))
    }

    /// Everything one call delivers, or the error it threw.
    static func collect(_ server: ScriptedModelServer) async -> (events: [ModelEvent], error: (any Error)?) {
        var events: [ModelEvent] = []
        do {
            for try await event in client(server).stream([ChatTurn(role: "user", content: "Hi")]) { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    static func text(_ events: [ModelEvent]) -> String {
        events.map { if case .text(let delta, 0) = $0 { delta } else { "" } }.joined()
    }

    @Test func textStreamsAsRealChunksWithFinishAndUsage() async throws {
        let server = try await ScriptedModelServer.start { _, _ in .text(["Hel", "lo ", "wörld"], usage: .init(input: 7, output: 3)) }
        let (events, error) = await Self.collect(server)
        await server.shutdown()
        #expect(error == nil)
        #expect(Self.text(events) == "Hello wörld")
        #expect(events.contains(.finish(.stop)))
        #expect(events.contains { if case .usage(let usage) = $0 { usage.inputTokens == 7 && usage.outputTokens == 3 } else { false } })
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer sk-test")
        #expect(request.json?["stream"] == .bool(true))
        #expect(request.json?["model"] == .string("m"))
        #expect(request.messages.map(\.content) == ["Hi"])
        #expect(server.isClosed(request: 0))
    }

    @Test func statusCarriesRetryAfter() async throws {
        let server = try await ScriptedModelServer.start { _, _ in .status(429, retryAfter: "2", message: "slow down") }
        let (_, error) = await Self.collect(server)
        await server.shutdown()
        let failure = try #require(error as? CadenceClientError)
        #expect(failure.status == 429)
        #expect(failure.retryable)
        #expect(failure.retryAfter == .seconds(2))
        #expect(failure.message.contains("slow down"))
    }

    @Test func anErrorMidStreamComesAfterTheTextSoFar() async throws {
        let server = try await ScriptedModelServer.start { _, _ in .errorMidStream(["Partial ", "text"], message: "overloaded") }
        let (events, _) = await Self.collect(server)
        await server.shutdown()
        #expect(Self.text(events) == "Partial text")
        #expect(events.contains { if case .error(let error) = $0 { error.message == "overloaded" } else { false } })
        #expect(!events.contains(.finish(.stop)))
    }

    @Test func truncationEndsWithoutAFinishReason() async throws {
        let server = try await ScriptedModelServer.start { _, _ in .truncated(["Cut ", "off"]) }
        let (events, error) = await Self.collect(server)
        await server.shutdown()
        #expect(error == nil)
        #expect(Self.text(events) == "Cut off")
        #expect(events.last == .finish(.truncated))
    }

    @Test func silenceLastsUntilTheClientCloses() async throws {
        let server = try await ScriptedModelServer.start { _, _ in .silent(["Waiting"]) }
        let (received, receivedContinuation) = AsyncStream<String>.makeStream()
        let reading = Task {
            for try await event in Self.client(server).stream([ChatTurn(role: "user", content: "Hi")]) {
                if case .text(let delta, 0) = event { receivedContinuation.yield(delta) }
            }
        }
        for await delta in received where delta == "Waiting" { break }
        #expect(!server.isClosed(request: 0))
        reading.cancel()
        await server.waitUntilClosed(request: 0)
        #expect(server.isClosed(request: 0))
        await server.shutdown()
    }

    @Test func slowPiecesFollowTheInjectedClock() async throws {
        let clock = ManualClock()
        let server = try await ScriptedModelServer.start(clock: clock) { _, _ in .slow(["one ", "two"], interval: .seconds(5)) }
        let (received, receivedContinuation) = AsyncStream<String>.makeStream()
        let reading = Task {
            for try await event in Self.client(server).stream([ChatTurn(role: "user", content: "Hi")]) {
                if case .text(let delta, 0) = event, !delta.isEmpty { receivedContinuation.yield(delta) }
            }
            receivedContinuation.finish()
        }
        var pieces = received.makeAsyncIterator()
        await clock.waitForSleepers(1)
        #expect(!server.isClosed(request: 0))
        clock.advance(by: .seconds(5))
        #expect(await pieces.next() == "one ")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(await pieces.next() == "two")
        #expect(await pieces.next() == nil)
        try await reading.value
        await server.shutdown()
    }

    @Test func rawReplaysACapturedStream() async throws {
        let bytes = try SharedFixtures.streamBytes("openai-chat-basic-usage.txt")
        let server = try await ScriptedModelServer.start { _, _ in .raw(bytes) }
        let (events, error) = await Self.collect(server)
        await server.shutdown()
        #expect(error == nil)
        #expect(Self.text(events) == (try SharedFixtures.expectedText("openai-chat-basic-usage.txt")))
        #expect(events.contains(.finish(.stop)))
    }

    @Test func repliesFollowTheRequestIndex() async throws {
        let server = try await ScriptedModelServer.start { _, index in index == 0 ? .status(503) : .text(["second"]) }
        _ = await Self.collect(server)
        let (events, _) = await Self.collect(server)
        await server.waitForRequests(2)
        await server.shutdown()
        #expect(Self.text(events) == "second")
        #expect(server.requests.count == 2)
    }
}
