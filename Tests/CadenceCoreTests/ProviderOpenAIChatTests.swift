import CadenceCore
import Testing

/// SSE text with one `data:` event per payload.
func providerSSE(_ payloads: String...) -> String {
    payloads.map { "data: \($0)\n\n" }.joined()
}

/// SSE text with `event:` names: pairs of (type, data).
func providerSSE(events: [(String, String)]) -> String {
    events.map { "event: \($0.0)\ndata: \($0.1)\n\n" }.joined()
}

struct ProviderOpenAIChatTests {
    @Test func interleavedChoicesAreKeptApart() throws {
        let stream = providerSSE(
            #"{"choices":[{"index":1,"delta":{"content":"B1"}},{"index":0,"delta":{"content":"A1"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"content":"A2"},"finish_reason":"stop"}]}"#,
            #"{"choices":[{"index":1,"delta":{"content":"B2"},"finish_reason":"length"}]}"#,
            "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.text(choice: 0) == "A1A2")
        #expect(decoding.text(choice: 1) == "B1B2")
        #expect(decoding.finishes(choice: 0) == [.stop])
        #expect(decoding.finishes(choice: 1) == [.length])
    }

    @Test("data after [DONE] is ignored: a choice first seen there would never finish")
    func dataAfterDoneIsIgnored() throws {
        // Found by the openai-chat fuzz target.
        let stream = providerSSE(
            #"{"choices":[{"index":0,"delta":{"content":"A"}}]}"#,
            "[DONE]",
            #"{"choices":[{"index":5,"delta":{"content":" late"}}]}"#)
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.events == [.text("A"), .finish(.stop)])
    }

    @Test func azureEmptyFirstChunkAndUsageChunkYieldNoText() throws {
        let stream = providerSSE(
            #"{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}"#,
            #"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}"#,
            #"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4,"prompt_tokens_details":{"cached_tokens":2}}}"#,
            "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(
            decoding.events == [
                .text("Hi"), .finish(.contentFilter),
                .usage(ModelUsage(inputTokens: 3, outputTokens: 1, cachedInputTokens: 2, totalTokens: 4)),
            ])
    }

    @Test func anErrorAfterStatus200EndsTheOpenChoices() throws {
        let stream = providerSSE(
            #"{"choices":[{"index":0,"delta":{"content":"Par"}}]}"#,
            #"{"error":{"message":"The server had an error while processing your request.","type":"server_error","code":null}}"#
        )
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.text() == "Par")
        #expect(decoding.errors.map(\.message) == ["The server had an error while processing your request."])
        #expect(decoding.errors.first?.code == "server_error")
        #expect(decoding.errors.first?.retryable == true)
        #expect(decoding.finishes() == [.error])
    }

    @Test(arguments: ModelDialect.allCases.filter { !$0.usesLineFraming })
    func anyEventNamedErrorIsAnError(dialect: ModelDialect) throws {
        let stream = "event: error\ndata: {\"message\":\"upstream timed out\"}\n\n"
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: dialect)
        #expect(decoding.errors.map(\.message) == ["upstream timed out"])
        #expect(decoding.finishes() == [.error])
    }

    @Test(arguments: ModelDialect.allCases)
    func aBareErrorObjectIsAnErrorInEveryDialect(dialect: ModelDialect) throws {
        let error = #"{"error":{"message":"Bad gateway","type":"upstream_error","code":502}}"#
        let stream = dialect.usesLineFraming ? error + "\n" : providerSSE(error)
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: dialect)
        #expect(
            decoding.errors == [
                ModelError(code: "upstream_error", message: "Bad gateway", retryable: true, status: 502)
            ])
        #expect(decoding.finishes() == [.error])
    }

    @Test func legacyCompletionsTextIsRead() throws {
        let stream = providerSSE(
            #"{"object":"text_completion","choices":[{"text":"Once","index":0,"finish_reason":null}]}"#,
            #"{"object":"text_completion","choices":[{"text":" upon","index":0,"finish_reason":"length"}]}"#,
            "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.text() == "Once upon")
        #expect(decoding.finishes() == [.length])
    }

    @Test func reasoningRefusalAndToolCallsAreRead() throws {
        let stream = providerSSE(
            #"{"choices":[{"index":0,"delta":{"reasoning":"Think"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"reasoning_content":"ing"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"refusal":"I can't"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":""}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.reasoning() == "Thinking")
        #expect(decoding.refusal() == "I can't")
        #expect(decoding.toolCalls == [ToolCallDelta(index: 0, id: "c1", name: "f", argumentsDelta: "{}")])
        #expect(decoding.finishes() == [.toolCalls])
    }

    @Test func unknownFinishReasonIsKeptVerbatim() throws {
        let stream = providerSSE(#"{"choices":[{"index":0,"delta":{},"finish_reason":"eos_token"}]}"#, "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.finishes() == [.other("eos_token")])
    }

    @Test func badJSONIsAnErrorEventAndDecodingGoesOn() throws {
        let stream = providerSSE(
            #"{"choices":[{"index":0,"delta":{"content":"A"}}"#,
            #"["not","an","object"]"#,
            #"{"choices":[{"index":0,"delta":{"content":"B"}}]}"#,
            "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.text() == "B")
        #expect(decoding.errors.count == 2)
        #expect(
            decoding.errors.allSatisfy { $0.code == ModelError.invalidJSON && $0.message.hasPrefix("openai-chat:") })
        #expect(decoding.errors.first?.message.contains("not valid JSON") == true)
        #expect(decoding.errors.last?.message.contains("not a JSON object") == true)
        #expect(decoding.finishes() == [.stop])
    }

    @Test func doneWithoutFinishReasonIsAStopAndMissingDoneIsTruncation() throws {
        let chunk = #"{"choices":[{"index":0,"delta":{"content":"A"}}]}"#
        let ended = try ModelStreamDecoder.providerDecoding(providerSSE(chunk, "[DONE]"), dialect: .openAIChat)
        #expect(ended.finishes() == [.stop])
        let cut = try ModelStreamDecoder.providerDecoding(providerSSE(chunk), dialect: .openAIChat)
        #expect(cut.events == [.text("A"), .finish(.truncated)])
    }

    @Test func theDialectDecoderCanBeUsedAlone() {
        var decoder = OpenAIChatDecoder()
        let events = decoder.decode(SSEEvent(data: #"{"choices":[{"index":2,"delta":{"content":"x"}}]}"#))
        #expect(events == [.text("x", choice: 2)])
        #expect(decoder.finish() == [.finish(.truncated, choice: 2)])
        #expect(decoder.finish() == [])
    }
}
