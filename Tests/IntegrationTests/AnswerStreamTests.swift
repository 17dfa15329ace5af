import CadenceClient
import CadenceCore
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
import Testing

/// The reliability engine end to end: a real AnswerStream, real transports, a real fault server.
@Suite("AnswerStream over loopback")
struct AnswerStreamTests {
    static let text = "Streams break: naïve clients lose text — ünïcödé, 日本語, 🧑‍🚀 and all. Cadence resumes instead."

    /// Fast retries, so tests spend no real time in backoff.
    static let quickRetries: ReliabilityConfiguration = {
        var configuration = ReliabilityConfiguration()
        configuration.backoffBase = .milliseconds(1)
        configuration.backoffMax = .milliseconds(2)
        return configuration
    }()

    @Test("a drop at any byte, even inside a UTF-8 character, is resumed with nothing lost or doubled",
          arguments: [1, 97, 260, 411, 523, 700])
    func dropAndResume(atByte: Int) async throws {
        let script = FaultScript.answer(text: Self.text, tokenCharacters: 3)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(.closeAfter(bytes: atByte))
        let updates = await collectUpdates(
            AnswerStream(
                request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
                configuration: Self.quickRetries))
        #expect(updates.text == script.text)
        guard case .completed(let completion) = updates.last else {
            Issue.record("not completed: \(String(describing: updates.last))")
            return
        }
        #expect(completion.reason == .completed)
        #expect(completion.text == script.text)
        #expect(updates.filter(\.isTerminal).count == 1)
        #expect(updates.contains(.reconnected))
        let resumed = server.requests.dropFirst().first
        #expect(resumed?.method == "GET", "the second connection resumes")
    }

    @Test("503, then 429 with Retry-After, then success: retried with reconnecting updates")
    func retriesStatuses() async throws {
        let script = FaultScript.answer(text: Self.text)
        let server = try await FaultServer.start(script: script)
        defer { Task { await server.shutdown() } }
        server.enqueue(.status(503), .status(429, headers: ["retry-after-ms": "1"]))
        let updates = await collectUpdates(
            AnswerStream(
                request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
                configuration: Self.quickRetries))
        let attempts = updates.compactMap { if case .reconnecting(let attempt, _) = $0 { attempt } else { nil } }
        #expect(attempts == [2, 3])
        #expect(updates.text == script.text)
        #expect(updates.last.map { if case .completed = $0 { true } else { false } } == true)
    }

    @Test("a non-retryable status fails at once with a clear message")
    func nonRetryable() async throws {
        let server = try await FaultServer.start(script: FaultScript.answer(text: Self.text))
        defer { Task { await server.shutdown() } }
        server.enqueue(.status(400))
        let updates = await collectUpdates(
            AnswerStream(
                request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
                configuration: Self.quickRetries))
        guard case .failed(let failure) = updates.last else {
            Issue.record("not failed: \(String(describing: updates.last))")
            return
        }
        #expect(failure.status == 400)
        #expect(failure.message.contains("400"))
        #expect(server.requests.count == 1)
    }

    @Test("a stalled stream resumes once on the injected clock; stalled again, it times out keeping its partial text")
    func idleTimeoutKeepsPartialText() async throws {
        let script = FaultScript.answer(text: Self.text)
        let server = try await FaultServer.start(script: script)
        let gate = FaultGate()
        defer {
            gate.release()
            Task { await server.shutdown() }
        }
        let bytes = script.frames(after: 0)
        server.enqueue(.stall(afterBytes: bytes.frameEnds[8], gate: gate), .stall(afterBytes: 0, gate: gate))
        let clock = ManualClock()
        var configuration = Self.quickRetries
        configuration.idleTimeout = .seconds(120)
        configuration.byteIdleTimeout = nil
        configuration.firstTokenTimeout = nil
        let stream = AnswerStream(
            request: AnswerRequest(query: "q"), transport: SSETransport(baseURL: server.baseURL),
            configuration: configuration, clock: clock)
        // Read everything the server sent before it stalled (events 1 to 9), then move time past the
        // idle timeout. Reading only the first text would let the timeout fire with some of those events
        // still in the socket, and the resume would then ask from an earlier cursor.
        let beforeStall = String(script.text.unicodeScalars.dropLast(script.text(after: 9).unicodeScalars.count))
        var iterator = stream.makeAsyncIterator()
        var updates: [AnswerUpdate] = []
        while updates.text != beforeStall, let update = await iterator.next() { updates.append(update) }
        #expect(updates.text == beforeStall)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(121))
        // The idle timeout resumes once: past the retry wait, a new connection asks for what follows.
        while updates.last != .reconnected, let update = await iterator.next() {
            updates.append(update)
            if case .reconnecting = update {
                await clock.waitForSleepers(1)
                clock.advance(by: configuration.backoffMax)
            }
        }
        #expect(server.requests.last?.lastEventID == 9)
        // The resumed stream stalls too: the next idle timeout ends the answer.
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(121))
        while let update = await iterator.next() { updates.append(update) }
        guard case .completed(let completion) = updates.last else {
            Issue.record("not completed: \(String(describing: updates.last))")
            return
        }
        #expect(completion.reason == .timedOut)
        #expect(!completion.text.isEmpty)
        #expect(script.text.hasPrefix(completion.text))
    }

    @Test("cancelling one answer leaves another streaming on the same server untouched")
    func independentCancellation() async throws {
        try await withServer { server in
            let transport = SSETransport(baseURL: server.baseURL)
            let cancelled = Task {
                await collectUpdates(AnswerStream(request: AnswerRequest(query: "What is BM25?"), transport: transport))
            }
            cancelled.cancel()
            let kept = await collectUpdates(
                AnswerStream(request: AnswerRequest(query: "How does resume work?"), transport: transport))
            #expect(kept.last.map { if case .completed = $0 { true } else { false } } == true)
            #expect(!kept.text.isEmpty)
            let cancelledUpdates = await cancelled.value
            #expect(!cancelledUpdates.contains { if case .completed = $0 { true } else { false } })
        }
    }

    @Test("many answers stream at once, each to exactly one terminal state")
    func manyAtOnce() async throws {
        try await withServer { server in
            let transport = SSETransport(baseURL: server.baseURL)
            let results = await withTaskGroup(of: [AnswerUpdate].self) { group in
                for index in 0..<12 {
                    group.addTask {
                        await collectUpdates(
                            AnswerStream(request: AnswerRequest(query: index.isMultiple(of: 2) ? "What is SSE?" : "What is BM25?"),
                                         transport: transport))
                    }
                }
                return await group.reduce(into: [[AnswerUpdate]]()) { $0.append($1) }
            }
            #expect(results.count == 12)
            for updates in results {
                #expect(updates.filter(\.isTerminal).count == 1)
                #expect(updates.last.map { if case .completed = $0 { true } else { false } } == true)
            }
        }
    }
}
