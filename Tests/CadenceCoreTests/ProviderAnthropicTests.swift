import CadenceCore
import Testing

struct ProviderAnthropicTests {
    static func delta(_ index: Int, _ delta: String) -> (String, String) {
        ("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":\#(delta)}"#)
    }

    @Test func thinkingTextAndCumulativeUsage() throws {
        let stream = providerSSE(events: [
            (
                "message_start",
                #"{"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}}"#
            ),
            (
                "content_block_start",
                #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#
            ),
            Self.delta(0, #"{"type":"thinking_delta","thinking":"Hmm"}"#),
            Self.delta(0, #"{"type":"signature_delta","signature":"abc"}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            (
                "content_block_start",
                #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#
            ),
            ("ping", #"{"type": "ping"}"#),
            Self.delta(1, #"{"type":"text_delta","text":"Yes"}"#),
            (
                "message_delta",
                #"{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":20}}"#
            ),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .anthropic)
        #expect(
            decoding.events == [
                .reasoning("Hmm"), .text("Yes"),
                .usage(ModelUsage(inputTokens: 15, outputTokens: 20, cachedInputTokens: 5)),
                .finish(.length),
            ])
    }

    @Test func overloadedErrorIsRetryable() throws {
        let stream = providerSSE(events: [
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":1}}}"#),
            Self.delta(0, #"{"type":"text_delta","text":"Par"}"#),
            ("error", #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
        ])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .anthropic)
        #expect(decoding.text() == "Par")
        #expect(decoding.errors == [ModelError(code: "overloaded_error", message: "Overloaded", retryable: true)])
        #expect(decoding.finishes() == [.error])
    }

    @Test(arguments: [
        ("end_turn", FinishReason.stop), ("stop_sequence", .stop), ("tool_use", .toolCalls), ("refusal", .refusal),
        ("pause_turn", .other("pause_turn")),
    ])
    func stopReasonsMap(reason: String, expected: FinishReason) throws {
        let stream = providerSSE(events: [
            (
                "message_delta",
                #"{"type":"message_delta","delta":{"stop_reason":"\#(reason)"},"usage":{"output_tokens":2}}"#
            ),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        #expect(try ModelStreamDecoder.providerDecoding(stream, dialect: .anthropic).finishes() == [expected])
    }

    @Test func twoToolUseBlocksAreNumberedInOrder() throws {
        let stream = providerSSE(events: [
            (
                "content_block_start",
                #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"a","input":{}}}"#
            ),
            (
                "content_block_start",
                #"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t2","name":"b","input":{}}}"#
            ),
            Self.delta(2, #"{"type":"input_json_delta","partial_json":"{\"y\":2}"}"#),
            Self.delta(1, #"{"type":"input_json_delta","partial_json":"{\"x\":1}"}"#),
            Self.delta(7, #"{"type":"input_json_delta","partial_json":"ignored: unknown block"}"#),
        ])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .anthropic)
        #expect(
            decoding.toolCalls == [
                ToolCallDelta(index: 0, id: "t1", name: "a", argumentsDelta: #"{"x":1}"#),
                ToolCallDelta(index: 1, id: "t2", name: "b", argumentsDelta: #"{"y":2}"#),
            ])
        #expect(decoding.finishes() == [.truncated])
    }

    @Test func badJSONIsAnErrorEvent() throws {
        let stream = providerSSE(events: [
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"#)
        ])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .anthropic)
        #expect(decoding.errors.count == 1)
        #expect(decoding.errors.first?.message.hasPrefix("anthropic: data is not valid JSON") == true)
        #expect(decoding.finishes() == [.truncated])
    }
}
