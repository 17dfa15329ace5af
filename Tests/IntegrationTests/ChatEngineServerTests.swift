import CadenceClient
import CadenceCore
import CadenceEngine
import CadenceResearch
import CadenceServer
import CadenceTestFixtures
import CadenceTesting
import Testing

/// The chat engine end to end: a loopback model replaying each provider's stream, the real
/// reference server on 127.0.0.1:0, and the Cadence client reading the answer over SSE.
@Suite("The chat engine, through the server")
struct ChatEngineServerTests {
    /// One upstream model: a provider's stream, replayed at its route.
    struct Upstream: Sendable, CustomTestStringConvertible {
        var kind: ModelProvider.Kind
        var name: String
        var bytes: [UInt8]
        /// The text the shared capture's index gives, for captures.
        var indexedText: String?
        var testDescription: String { "\(kind.rawValue): \(name)" }

        var contentType: String { kind == .ollama ? "application/x-ndjson" : "text/event-stream" }

        var route: String {
            switch kind {
            case .openAI: "/v1/chat/completions"
            case .openAIResponses: "/v1/responses"
            case .anthropic: "/v1/messages"
            case .gemini: "/v1beta/models/*"
            case .ollama: "/api/chat"
            }
        }

        var basePath: String { kind == .openAI || kind == .openAIResponses ? "/v1" : "" }

        static func capture(_ kind: ModelProvider.Kind, _ file: String) -> Upstream {
            Upstream(
                kind: kind, name: file, bytes: (try? SharedFixtures.streamBytes(file)) ?? [],
                indexedText: try? SharedFixtures.expectedText(file))
        }

        static func sse(_ kind: ModelProvider.Kind, _ name: String, _ events: [(String?, String)]) -> Upstream {
            let text = events.map { type, data in (type.map { "event: \($0)\n" } ?? "") + "data: \(data)\n\n" }.joined()
            return Upstream(kind: kind, name: name, bytes: Array(text.utf8))
        }
    }

    static let upstreams: [Upstream] = [
        .capture(.openAI, "openai-chat-basic-usage.txt"),
        .capture(.openAI, "openai-chat-parallel-tool-calls.txt"),
        .capture(.openAI, "deepseek-reasoning-content.txt"),
        .capture(.openAIResponses, "openai-responses-raw-sse-text.txt"),
        .sse(
            .openAIResponses, "reasoning, refusal and a tool call", ProviderEventSamples.responsesReasoningRefusalToolCall),
        .capture(.anthropic, "anthropic-text-then-tool-use.txt"),
        .sse(
            .anthropic, "thinking, then text cut at max_tokens",
            [
                (
                    "message_start",
                    #"{"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}}"#
                ),
                (
                    "content_block_start",
                    #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#
                ),
                ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm"}}"#),
                ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
                (
                    "content_block_start",
                    #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#
                ),
                ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Yes"}}"#),
                (
                    "message_delta",
                    #"{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":20}}"#
                ),
                ("message_stop", #"{"type":"message_stop"}"#),
            ]),
        .capture(.gemini, "gemini-basic-short-crlf.txt"),
        .sse(
            .gemini, "a thought part, then text",
            [
                (nil, #"{"candidates":[{"content":{"parts":[{"text":"Let me think","thought":true}]}}]}"#),
                (
                    nil,
                    #"{"candidates":[{"content":{"parts":[{"text":"Answer"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"thoughtsTokenCount":3,"totalTokenCount":9}}"#
                ),
            ]),
        .capture(.ollama, "ollama-generate-ndjson-docs.txt"),
        Upstream(
            kind: .ollama, name: "thinking, a tool call and counts",
            bytes: Array(
                """
                {"model":"qwen3","message":{"role":"assistant","content":"","thinking":"Hmm"},"done":false}
                {"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Oslo"}}}]},"done":false}
                {"model":"qwen3","message":{"role":"assistant","content":"Ok"},"done":true,"done_reason":"stop","prompt_eval_count":26,"eval_count":5}

                """.utf8)),
    ]

    /// What the provider's stream says, as the dialect's decoder reads it whole: the reference the
    /// relayed answer must equal.
    struct Expected {
        var tokens: [String] = []
        var reasoning: [String] = []
        var refusal: [String] = []
        var toolCalls: [ToolCall] = []
        var usage: ModelUsage?
        var finish: FinishReason?

        init(_ upstream: Upstream) throws {
            var decoder = ModelStreamDecoder(dialect: upstream.kind.dialect)
            let events = try decoder.feed(upstream.bytes) + decoder.finish()
            var calls: [ToolCallDelta] = []
            for event in events {
                switch event {
                case .text(let text, 0) where !text.isEmpty: tokens.append(text)
                case .reasoning(let text, 0) where !text.isEmpty: reasoning.append(text)
                case .refusal(let text, 0) where !text.isEmpty: refusal.append(text)
                case .toolCall(let fragment) where fragment.choice == 0:
                    if let at = calls.firstIndex(where: { $0.index == fragment.index }) {
                        calls[at].argumentsDelta += fragment.argumentsDelta
                    } else {
                        calls.append(fragment)
                    }
                case .usage(let usage): self.usage = usage
                case .finish(let reason, 0): finish = reason
                default: break
                }
            }
            toolCalls = calls.map { ToolCall(id: $0.id ?? "", name: $0.name ?? "", arguments: $0.argumentsDelta) }
        }
    }

    /// Runs `body` with the real server answering with the chat engine, the model at `model`.
    static func withChat<T>(
        kind: ModelProvider.Kind = .openAI, baseURL: String, system: String? = nil,
        configuration: ChatConfiguration = ChatConfiguration(), clock: some Clock<Duration> = ContinuousClock(),
        _ body: (RunningServer) async throws -> T
    ) async throws -> T {
        let provider = ModelProvider(kind: kind, baseURL: baseURL, model: "test-model", system: system)
        let engine = ChatEngine(client: ModelClient(provider: provider), configuration: configuration, clock: clock)
        return try await withServer(engine: engine, body)
    }

    static let question = AnswerRequest(
        query: "And in Paris?",
        history: [
            ChatTurn(role: "user", content: "What's the weather in Oslo?"),
            ChatTurn(role: "assistant", content: "Cold."),
        ])

    @Test(arguments: upstreams)
    func relaysEachDialectExactly(upstream: Upstream) async throws {
        try #require(!upstream.bytes.isEmpty, "the capture \(upstream.name) is missing")
        let expected = try Expected(upstream)
        let model = try await ReplayServer.start(routes: [
            upstream.route: [.stream(upstream.bytes, contentType: upstream.contentType)]
        ])
        defer { Task { await model.shutdown() } }
        let received = try await Self.withChat(
            kind: upstream.kind, baseURL: model.baseURL + upstream.basePath, system: "Be brief.",
            configuration: ChatConfiguration(maxOutputTokens: 321)
        ) { server in
            await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question).received
        }

        #expect(received.error == nil)
        #expect(received.contents("token") == expected.tokens)
        if let text = upstream.indexedText { #expect(received.text == text) }
        #expect(received.contents("reasoning") == expected.reasoning)
        #expect(received.contents("refusal") == expected.refusal)
        #expect(received.toolCalls == expected.toolCalls)
        let completion = try #require(received.completion, "ended with \(String(describing: received.events.last))")
        let metadata = completion.metadata
        #expect(metadata["engine"] == .string("chat"))
        #expect(metadata["model"] == .string("test-model"))
        #expect(metadata["finish_reason"] == expected.finish.map { .string($0.name) })
        #expect(metadata["usage"]?["input_tokens"] == .number(Double(expected.usage?.inputTokens ?? 0)))
        #expect(metadata["usage"]?["output_tokens"] == .number(Double(expected.usage?.outputTokens ?? 0)))
        #expect(metadata["budget"]?["token_limit"] == .number(200_000))
        #expect(metadata["budget"]?["time_limit_ms"] != nil)

        // The conversation, the system prompt and the output cap reach the model in its own format.
        let request = try #require(model.requests.first)
        for said in ["What's the weather in Oslo?", "Cold.", "And in Paris?", "Be brief."] {
            #expect(request.body.contains(said), "\(said) in \(request.body)")
        }
        let body = try JSONValue(parsing: request.body)
        let cap: JSONValue? =
            switch upstream.kind {
            case .openAI: body["max_tokens"]
            case .openAIResponses: body["max_output_tokens"]
            case .anthropic: body["max_tokens"]
            case .gemini: body["generationConfig"]?["maxOutputTokens"]
            case .ollama: body["options"]?["num_predict"]
            }
        #expect(cap == .number(321))
    }

    @Test func a429IsRetriedAfterItsRetryAfterAndTheTextArrivesOnce() async throws {
        let clock = ManualClock()
        let model = try await ScriptedModelServer.start { _, index in
            index == 0 ? .status(429, retryAfter: "5", message: "rate limited") : .text(["Hello", " world"])
        }
        defer { Task { await model.shutdown() } }
        try await Self.withChat(baseURL: model.baseURL, clock: clock) { server in
            let reading = Task { await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question) }
            await model.waitUntilClosed(request: 0)
            // The retry waits for Retry-After (5 s, past the backoff's 0.5 s) on the engine's clock.
            await clock.waitForSleeps { $0.contains { $0 >= .seconds(5) && $0 < .seconds(60) } }
            #expect(model.requests.count == 1)
            clock.advance(by: .seconds(5))
            let (_, received) = await reading.value
            #expect(model.requests.count == 2)
            #expect(received.contents("token") == ["Hello", " world"])
            #expect(received.events.map(\.kind.wireType).filter { $0 != "token" && $0 != "flush_tokens" } == ["complete"])
            #expect(received.completion?.metadata["model_calls"] == .number(2))
        }
    }

    @Test(arguments: [
        (ScriptedModelServer.Reply.errorMidStream(["Partial ", "answer"], message: "overloaded"), "model_error"),
        (ScriptedModelServer.Reply.truncated(["Partial ", "answer"]), "model_truncated"),
        (ScriptedModelServer.Reply.text(["Partial ", "answer"], usage: .init(input: 10, output: 20)), "budget_exceeded"),
    ])
    func aBrokenOrOverBudgetAnswerKeepsItsTextAndEndsInAnError(reply: ScriptedModelServer.Reply, code: String)
        async throws
    {
        let model = try await ScriptedModelServer.start { _, _ in reply }
        defer { Task { await model.shutdown() } }
        try await Self.withChat(baseURL: model.baseURL, configuration: ChatConfiguration(maxAnswerTokens: 25)) { server in
            let (_, received) = await openAndReceive(SSETransport(baseURL: server.baseURL), Self.question)
            #expect(received.text == "Partial answer")
            let ending = try #require(received.finalError, "no error at the end: \(received.wireTypes)")
            #expect(ending.code == code)
            #expect(!ending.message.isEmpty)
            #expect(received.completion == nil)
            // Text reached the readers: the call is never tried again.
            #expect(model.requests.count == 1)
        }
    }

    @Test func deleteClosesTheModelCall() async throws {
        let model = try await ScriptedModelServer.start { _, _ in .silent(["Partial"]) }
        defer { Task { await model.shutdown() } }
        try await Self.withChat(baseURL: model.baseURL) { server in
            let connection = try await SSETransport(baseURL: server.baseURL).open(Self.question, resume: nil)
            let id = try #require(connection.answerID)
            var items = connection.items.makeAsyncIterator()
            while case .event(let event)? = try await items.next(), event.kind != .token("Partial") {}
            #expect(!model.isClosed(request: 0))
            let (status, _) = try await AnswerCancelTests.delete(server, id)
            #expect(status == 200)
            // The model sees its connection closed (the deadline only turns a hang into a failure).
            try await withDeadline(.seconds(10), "the model call's close") { await model.waitUntilClosed(request: 0) }
            var last: ResearchEvent.Kind?
            while let item = try await items.next() {
                if case .event(let event) = item { last = event.kind }
            }
            #expect(last == .error(code: "cancelled", message: "the answer was cancelled by the client"))
        }
    }

    @Test func aClientThatLeavesWithoutDeleteLeavesTheAnswerRunning() async throws {
        let modelClock = ManualClock()
        let model = try await ScriptedModelServer.start(clock: modelClock) { _, _ in
            .slow(["One ", "two ", "three."], interval: .seconds(1))
        }
        defer { Task { await model.shutdown() } }
        try await Self.withChat(baseURL: model.baseURL) { server in
            let transport = SSETransport(baseURL: server.baseURL)
            // The first reader takes one token and leaves: its connection is released with it.
            let firstPart = Task { await openAndReceive(transport, Self.question, stopAfter: 1) }
            await modelClock.waitForSleep(until: .seconds(1))
            modelClock.advance(by: .seconds(1))
            let (answerID, first) = await firstPart.value
            #expect(first.text == "One ")
            let id = try #require(answerID)
            // The client is gone; the model goes on writing.
            for second in 2...3 {
                await modelClock.waitForSleep(until: .seconds(second))
                modelClock.advance(by: .seconds(1))
            }
            await model.waitUntilClosed(request: 0)
            let (_, rest) = await openAndReceive(
                transport, Self.question, resume: ResumeCursor(answerID: id, lastSequence: 0))
            #expect(rest.text == "One two three.")
            #expect(rest.completion?.metadata["finish_reason"] == .string("stop"))
            #expect(model.requests.count == 1)
        }
    }
}

extension Received {
    /// The contents of the `token`, `reasoning` or `refusal` events, in order.
    func contents(_ type: String) -> [String] {
        events.compactMap { event in
            switch event.kind {
            case .token(let text) where type == "token": text
            case .reasoning(let text) where type == "reasoning": text
            case .refusal(let text) where type == "refusal": text
            default: nil
            }
        }
    }

    /// The `tool_call` events' calls, in order.
    var toolCalls: [ToolCall] {
        events.compactMap { if case .toolCall(let call) = $0.kind { call } else { nil } }
    }

    /// The final `complete`, if the answer ended with one.
    var completion: Completion? {
        if case .complete(let completion)? = events.last?.kind { completion } else { nil }
    }
}
