import AsyncHTTPClient
import CadenceCore
import CadenceServer
import CadenceTestFixtures
import NIOCore
import Testing

/// The OpenAI-compatible front door (`/v1/chat/completions`) on a real server over real sockets:
/// the chunks, the single object, cancelling, errors in OpenAI's shape, and the answer behind it,
/// the same one `/v1/answers/{id}` serves.
@Suite("OpenAI-compatible chat completions", .timeLimit(.minutes(2)))
struct ChatCompletionTests {
    /// An answer with everything a chat engine sends: a stage (not a chunk), reasoning, text in
    /// pieces, a refusal, a tool call, and `complete` with usage, finish reason and model.
    static let engine = ListedEngine(kinds: [
        .searching(source: "notes"),
        .reasoning("Thinking about "), .reasoning("Köln."),
        .token("Grüße "), .token("aus 🎉 Köln"),
        .refusal("I won't do that part."),
        .toolCall(ToolCall(id: "call_1", name: "weather", arguments: #"{"city":"Köln"}"#)),
        .complete(Completion(metadata: [
            "finish_reason": "tool_use", "model": "upstream-model-1",
            "usage": ["input_tokens": 12, "output_tokens": 5],
        ])),
    ])

    @Test("stream: true sends chat.completion.chunk SSE, each with its event's sequence as id:, ending with [DONE]")
    func streaming() async throws {
        try await withServer(engine: Self.engine) { server in
            let response = try await ChatClient.complete(server, ChatClient.body("Hi", stream: true))
            #expect(response.status == 200)
            #expect(response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true)
            let id = try #require(response.answerID)
            let frames = response.frames
            #expect(frames.last?.data == "[DONE]")
            #expect(frames.last?.id == nil)
            let chunks = frames.dropLast()
            #expect(chunks.allSatisfy { !$0.hasEventField }, "OpenAI's Python library reads only frames without event:")
            #expect(chunks.allSatisfy { $0.json?["id"]?.stringValue == "chatcmpl-\(id)" })
            #expect(chunks.allSatisfy { $0.json?["object"]?.stringValue == "chat.completion.chunk" })
            #expect(chunks.allSatisfy { $0.json?["model"]?.stringValue == "test-model" })
            #expect(Set(chunks.map { $0.json?["created"]?.intValue }).count == 1)
            #expect(chunks.allSatisfy { $0.json?["usage"] == nil }, "no usage member without include_usage")

            // Each chunk's id is the sequence of the event it came from: the stage (1) has no chunk.
            let (text, events) = try await ChatClient.answerText(server, id)
            #expect(chunks.map(\.id) == [2, 3, 4, 5, 6, 7, 8])
            #expect(events.map(\.sequence) == [1, 2, 3, 4, 5, 6, 7, 8])
            #expect(chunks.first?.delta?["role"]?.stringValue == "assistant")
            #expect(chunks.dropFirst().allSatisfy { $0.delta?["role"] == nil })
            #expect(chunks.compactMap { $0.delta?["reasoning_content"]?.stringValue }.joined() == "Thinking about Köln.")
            #expect(ChatFrames.content(Array(chunks)) == text)
            #expect(text == "Grüße aus 🎉 Köln")
            #expect(chunks.compactMap { $0.delta?["refusal"]?.stringValue } == ["I won't do that part."])
            let calls = chunks.compactMap { $0.delta?["tool_calls"] }
            #expect(calls.first?[0] == [
                "index": 0, "id": "call_1", "type": "function",
                "function": ["name": "weather", "arguments": #"{"city":"Köln"}"#],
            ])
            let finish = try #require(chunks.last?.json?["choices"]?.arrayValue?.first)
            #expect(finish["finish_reason"]?.stringValue == "tool_calls", "Anthropic's tool_use, in OpenAI's words")
            #expect(finish["delta"] == [:])
            #expect(chunks.dropLast().allSatisfy { $0.json?["choices"]?[0]?["finish_reason"] == .null })
        }
    }

    @Test("stream_options.include_usage adds a last chunk with choices [] and the usage, before [DONE]")
    func includeUsage() async throws {
        try await withServer(engine: Self.engine) { server in
            let response = try await ChatClient.complete(server, ChatClient.body("Hi", stream: true, includeUsage: true))
            let frames = response.frames
            #expect(frames.last?.data == "[DONE]")
            let usage = try #require(frames.dropLast().last)
            #expect(usage.id == 8, "the usage chunk comes from complete, like the finish chunk")
            #expect(usage.json?["choices"] == [])
            #expect(usage.json?["usage"] == ["prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17])
            #expect(frames.dropLast(2).allSatisfy { $0.json?["usage"] == .null })
            #expect(frames.dropLast(2).last?.json?["choices"]?[0]?["finish_reason"]?.stringValue == "tool_calls")
            // The finish chunk says it is followed by the usage chunk, so a cut between the two
            // resumes with only the usage chunk.
            #expect(frames.dropLast(2).last?.rawID == "8:finish")
            let id = try #require(response.answerID)
            let resumed = try await ChatClient.send(
                .GET, server.baseURL + "/v1/chat/completions/\(id)/events?include_usage=true",
                headers: [("Last-Event-ID", "8:finish")])
            #expect(resumed.status == 200)
            #expect(resumed.frames.map(\.rawID) == ["8", nil])
            #expect(resumed.frames.first?.json?["usage"] == usage.json?["usage"])
            let refused = try await ChatClient.send(
                .GET, server.baseURL + "/v1/chat/completions/\(id)/events", headers: [("Last-Event-ID", "0:finish")])
            #expect(refused.status == 400)
        }
    }

    @Test("stream: false answers one chat.completion once the answer has ended; /v1/answers serves the same answer")
    func single() async throws {
        try await withServer(engine: Self.engine) { server in
            let response = try await ChatClient.complete(server, ChatClient.body("Hi", stream: false))
            #expect(response.status == 200)
            #expect(response.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
            let id = try #require(response.answerID)
            let object = try #require(response.json)
            #expect(object["id"]?.stringValue == "chatcmpl-\(id)")
            #expect(object["object"]?.stringValue == "chat.completion")
            #expect(object["model"]?.stringValue == "upstream-model-1", "the model the engine reported")
            #expect(object["usage"] == ["prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17])
            let choice = try #require(object["choices"]?[0])
            #expect(choice["finish_reason"]?.stringValue == "tool_calls")
            let message = try #require(choice["message"])
            let (text, _) = try await ChatClient.answerText(server, id)
            #expect(message["role"]?.stringValue == "assistant")
            #expect(message["content"]?.stringValue == text)
            #expect(message["reasoning_content"]?.stringValue == "Thinking about Köln.")
            #expect(message["refusal"]?.stringValue == "I won't do that part.")
            #expect(message["tool_calls"] == [
                ["id": "call_1", "type": "function", "function": ["name": "weather", "arguments": #"{"city":"Köln"}"#]],
            ])
        }
    }

    @Test("the last user message is the query, earlier user and assistant messages the history, system messages the system prompt")
    func requestMapping() async throws {
        try await withServer(engine: EchoEngine()) { server in
            let body = """
                {"model": "m", "temperature": 0.2, "max_tokens": 50, "unknown": {"x": 1}, "messages": [
                  {"role": "system", "content": "Be brief."},
                  {"role": "user", "content": "First?"},
                  {"role": "assistant", "content": [{"type": "text", "text": "One"}, {"type": "text", "text": " answer."}]},
                  {"role": "developer", "content": "Cite sources."},
                  {"role": "user", "content": [{"type": "text", "text": "  Second?  "}]}]}
                """
            let response = try await ChatClient.complete(server, body)
            let content = try #require(response.json?["choices"]?[0]?["message"]?["content"]?.stringValue)
            #expect(try JSONValue(parsing: content) == [
                "query": "Second?", "system": "Be brief.\n\nCite sources.",
                "history": [["role": "user", "content": "First?"], ["role": "assistant", "content": "One answer."]],
            ])
            #expect(response.json?["choices"]?[0]?["finish_reason"]?.stringValue == "stop")
            #expect(response.json?["usage"] == .null, "an engine that reports no usage gets none made up")
        }
    }

    @Test("an error event mid-stream becomes an {\"error\": …} chunk with its id, then [DONE]; stream: false gets the error status")
    func errorMidStream() async throws {
        let engine = ListedEngine(kinds: [.token("partial "), .error(code: "model_error", message: "the model broke")])
        try await withServer(engine: engine) { server in
            let streamed = try await ChatClient.complete(server, ChatClient.body("Hi", stream: true))
            let frames = streamed.frames
            #expect(frames.map(\.id) == [1, 2, nil])
            #expect(frames.last?.data == "[DONE]")
            #expect(frames[1].json == [
                "error": ["message": "the model broke", "type": "server_error", "code": "model_error", "param": nil],
            ])
            let single = try await ChatClient.complete(server, ChatClient.body("Hi", stream: false))
            #expect(single.status == 502)
            #expect(single.answerID != nil)
            #expect(single.json?["error"]?["code"]?.stringValue == "model_error")
            #expect(single.json?["error"]?["type"]?.stringValue == "server_error")
        }
    }

    @Test("DELETE /v1/chat/completions/{id} cancels the answer: the stream ends with a cancelled error chunk, a second DELETE is 409")
    func cancel() async throws {
        try await withServer(engine: HeldEngine()) { server in
            var request = HTTPClientRequest(url: server.baseURL + "/v1/chat/completions")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: ChatClient.body("Hi", stream: true)))
            let response = try await AnswerClient.client.execute(request, timeout: .seconds(30))
            let id = try #require(response.headers.first(name: "Cadence-Answer-ID"))
            let reader = Task { Array(try await response.body.collect(upTo: 1 << 20).readableBytesView) }
            let deleted = try await ChatClient.send(.DELETE, server.baseURL + "/v1/chat/completions/chatcmpl-\(id)")
            #expect(deleted.status == 200)
            #expect(deleted.json == ["id": .string(id), "status": "cancelled"])
            let frames = ChatFrames.parse(try await reader.value)
            #expect(ChatFrames.content(frames) == "Thinking")
            #expect(frames.dropLast().last?.json?["error"]?["code"]?.stringValue == "cancelled")
            #expect(frames.last?.data == "[DONE]")
            let again = try await ChatClient.send(.DELETE, server.baseURL + "/v1/chat/completions/\(id)")
            #expect(again.status == 409)
            #expect(again.json?["error"]?["code"]?.stringValue == "answer_finished")
            #expect(again.json?["error"]?["type"]?.stringValue == "invalid_request_error")
        }
    }
}
