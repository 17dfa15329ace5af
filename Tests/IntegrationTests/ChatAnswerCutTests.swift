import CadenceClient
import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Testing

/// A model's answer, carried by the chat engine, survives a connection cut at every byte between
/// the client and the server, over each transport: the client reads through a proxy that breaks
/// the connection after exactly N bytes of the response (its head included), then resumes from the
/// last event it got, and ends with exactly the model's text, reasoning and tool call, once each.
@Suite("A chat answer cut at every byte, over SSE, WebSocket and polling", .timeLimit(.minutes(5)))
struct ChatAnswerCutTests {
    /// Multi-byte characters in every piece, so that cuts fall inside them.
    static let tokens = ["Grüße ", "aus Köln ", "🎉, naïve ", "café — ", "日本語の", "テキスト ", "🚀 done."]
    static let reasoning = ["Köln first, ", "then 🎉."]
    static let toolCall = ToolCall(id: "call_1", name: "weather", arguments: #"{"city":"Köln"}"#)

    /// The model's OpenAI Chat Completions stream: reasoning, a tool call, `tokens` as the text,
    /// then the finish reason and the usage.
    static func modelStream(tokens: [String] = tokens) -> [UInt8] {
        func chunk(_ delta: String, finish: String = "null") -> String {
            #"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{\#(delta)},"finish_reason":\#(finish)}]}"#
                + "\n\n"
        }
        func string(_ text: String) -> String { JSONValue.string(text).jsonText }
        var stream = chunk(#""role":"assistant""#)
        for piece in reasoning { stream += chunk(#""reasoning_content":\#(string(piece))"#) }
        stream += chunk(
            #""tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":"}}]"#)
        stream += chunk(#""tool_calls":[{"index":0,"function":{"arguments":"\"Köln\"}"}}]"#)
        for piece in tokens { stream += chunk(#""content":\#(string(piece))"#) }
        stream += chunk("", finish: #""stop""#)
        stream += #"data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":9}}"#
            + "\n\ndata: [DONE]\n\n"
        return Array(stream.utf8)
    }

    /// `kind`'s transport at `baseURL`. A WebSocket handshake cut short can leave the WebSocket
    /// client waiting (about once in a few thousand cuts here); its connect timeout, shortened from
    /// 30 s, ends that wait with a retryable error, which this test then resumes from like any other.
    static func transport(_ kind: TransportTests.Kind, _ baseURL: String) -> any ResearchTransport {
        kind == .webSocket ? WebSocketTransport(baseURL: baseURL, connectTimeout: .seconds(2)) : kind.transport(baseURL)
    }

    @Test("cut at every byte of the response and resumed, the model's answer arrives exactly once", arguments: TransportTests.Kind.allCases)
    func everyByteOffset(over kind: TransportTests.Kind) async throws {
        let model = try await ReplayServer.start(routes: [
            "/v1/chat/completions": [.stream(Self.modelStream(), contentType: "text/event-stream")]
        ])
        defer { Task { await model.shutdown() } }
        try await ChatEngineServerTests.withChat(baseURL: model.baseURL + "/v1") { server in
            // The answer, started over polling so that every transport can resume it, read whole.
            let question = ChatEngineServerTests.question
            let (id, whole) = await openAndReceive(TransportTests.Kind.polling.transport(server.baseURL), question)
            let answerID = try #require(id)
            try #require(whole.endsWithComplete, "\(whole.events.last as Any)")
            #expect(whole.contents("token") == Self.tokens)
            #expect(whole.contents("reasoning") == Self.reasoning)
            #expect(whole.toolCalls == [Self.toolCall])
            #expect(whole.completion?.metadata["usage"]?["input_tokens"] == 12)
            #expect(whole.completion?.metadata["usage"]?["output_tokens"] == 9)
            let reference = whole.comparableEvents
            let start = ResumeCursor(answerID: answerID, lastSequence: 0)

            // Every offset from 0 until one past the whole response, where the cut never happens.
            var offset = 0
            var failures = 0
            var resumes = 0
            while offset < 200_000 {
                let proxy = try StallProxy.start(upstreamPort: server.port)
                proxy.cut(afterResponseBytes: offset)
                let (_, first) = await openAndReceive(Self.transport(kind, proxy.baseURL), question, resume: start)
                // Polling retries a broken poll itself, through the same proxy (whose later
                // connections pass): a second connection says the cut fell inside the response.
                let cutHappened = first.error != nil || proxy.connections > 1
                proxy.shutdown()
                var events = first.comparableEvents
                if first.error != nil {
                    #expect(first.clientError?.retryable == true, "cut at \(offset): \(String(describing: first.error))")
                    let cursor = ResumeCursor(answerID: answerID, lastSequence: first.sequences.last ?? 0)
                    let (_, rest) = await openAndReceive(kind.transport(server.baseURL), question, resume: cursor)
                    #expect(rest.error == nil, "resumed after the cut at \(offset): \(String(describing: rest.error))")
                    events += rest.comparableEvents
                    resumes += 1
                }
                if events != reference {
                    failures += 1
                    let text = Received(events: events).text
                    let types = events.map(\.kind.wireType)
                    Issue.record("cut at byte \(offset): \(text) \(types) after \(first.sequences.last ?? 0)")
                    if failures > 3 { break }
                }
                guard cutHappened else { break }
                offset += 1
            }
            #expect(offset > 1_000, "a response long enough to cut: \(offset) bytes")
            if kind != .polling { #expect(resumes > offset / 2, "most cuts broke the stream: \(resumes) of \(offset)") }
            #expect(model.requests.count == 1, "the model was asked once, whatever the cuts")
        }
    }
}
