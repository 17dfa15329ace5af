import CadenceCore
import Testing

struct ProviderOllamaTests {
    @Test func chatLinesWithThinkingToolCallsAndCounts() throws {
        let stream = """
            {"model":"qwen3","message":{"role":"assistant","content":"","thinking":"Hmm"},"done":false}
            {"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Oslo"}}}]},"done":false}
            {"model":"qwen3","message":{"role":"assistant","content":"Ok"},"done":true,"done_reason":"stop","prompt_eval_count":26,"eval_count":5}

            """
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .ollama)
        #expect(
            decoding.events == [
                .reasoning("Hmm"),
                .toolCall(ToolCallDelta(index: 0, name: "get_weather", argumentsDelta: #"{"city":"Oslo"}"#)),
                .text("Ok"),
                .usage(ModelUsage(inputTokens: 26, outputTokens: 5, totalTokens: 31)),
                .finish(.toolCalls),
            ])
    }

    /// Found by the openai-chat fuzzer (detecting Ollama): text after `"done": true` came after the
    /// choice's finish, although a choice ends with its finish.
    @Test func linesAfterDoneAreDropped() throws {
        let stream = """
            {"model":"m","response":"Hi","done":true,"done_reason":"stop"}
            {"model":"m","response":"!","done":false}
            {"model":"m","response":"?","done":true}
            """
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .ollama)
        #expect(decoding.events == [.text("Hi"), .finish(.stop)])
    }

    @Test func anErrorLineWithStatus200IsAnError() throws {
        let stream =
            "{\"model\":\"m\",\"response\":\"Hi\",\"done\":false}\r\n{\"error\":\"model runner has unexpectedly stopped\"}\r\n"
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .ollama)
        #expect(decoding.text() == "Hi")
        #expect(decoding.errors.map(\.message) == ["model runner has unexpectedly stopped"])
        #expect(decoding.finishes() == [.error])
    }

    @Test func lengthAndTruncation() throws {
        let length = #"{"response":"a","done":true,"done_reason":"length"}"#
        #expect(try ModelStreamDecoder.providerDecoding(length, dialect: .ollama).finishes() == [.length])
        let cut = #"{"response":"a","done":false}"# + "\n" + #"{"response":"b","do"#
        let decoding = try ModelStreamDecoder.providerDecoding(cut, dialect: .ollama)
        #expect(decoding.text() == "a")
        #expect(decoding.errors.first?.code == ModelError.invalidJSON)
        #expect(decoding.finishes() == [.truncated])
    }

    @Test func theLineDecoderCanBeUsedAlone() {
        var decoder = OllamaDecoder()
        #expect(
            decoder.decode(line: #"{"response":"!","done":true,"done_reason":"stop"}"#) == [.text("!"), .finish(.stop)])
        #expect(decoder.finish() == [])
    }
}
