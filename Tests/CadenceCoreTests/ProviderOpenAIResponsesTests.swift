import CadenceCore
import CadenceTestFixtures
import Testing

struct ProviderOpenAIResponsesTests {
    @Test func reasoningRefusalAndToolCallsAreRead() throws {
        let stream = providerSSE(events: ProviderEventSamples.responsesReasoningRefusalToolCall)
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIResponses)
        #expect(decoding.reasoning() == "Plan")
        #expect(decoding.refusal() == "No")
        #expect(
            decoding.toolCalls == [
                ToolCallDelta(index: 0, id: "call_1", name: "get_weather", argumentsDelta: #"{"city":"Paris"}"#)
            ])
        #expect(decoding.usages == [ModelUsage(inputTokens: 5, outputTokens: 7, reasoningTokens: 3, totalTokens: 12)])
        #expect(decoding.finishes() == [.toolCalls])
    }

    @Test(arguments: [
        ("max_output_tokens", FinishReason.length), ("content_filter", .contentFilter), ("other", .other("other")),
    ])
    func incompleteGivesItsReason(reason: String, expected: FinishReason) throws {
        let stream = providerSSE(events: [
            ("response.output_text.delta", #"{"type":"response.output_text.delta","delta":"Hal"}"#),
            (
                "response.incomplete",
                #"{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"\#(reason)"}}}"#
            ),
        ])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIResponses)
        #expect(decoding.text() == "Hal")
        #expect(decoding.finishes() == [expected])
    }

    @Test func failedGivesOneErrorThenFinishError() throws {
        let stream = providerSSE(events: [
            ("error", #"{"type":"error","code":"server_error","message":"Something went wrong","param":null}"#),
            (
                "response.failed",
                #"{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"Something went wrong"}}}"#
            ),
        ])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIResponses)
        #expect(decoding.errors == [ModelError(code: "server_error", message: "Something went wrong", retryable: true)])
        #expect(decoding.finishes() == [.error])
        let failedOnly = try ModelStreamDecoder.providerDecoding(
            providerSSE(events: [
                (
                    "response.failed",
                    #"{"type":"response.failed","response":{"error":{"code":"invalid_prompt","message":"Bad prompt"}}}"#
                )
            ]),
            dialect: .openAIResponses)
        #expect(failedOnly.errors == [ModelError(code: "invalid_prompt", message: "Bad prompt")])
        #expect(failedOnly.finishes() == [.error])
    }

    @Test func replayedSequenceNumbersAreSkipped() throws {
        let delta = { (n: Int, text: String) in
            (
                "response.output_text.delta",
                #"{"type":"response.output_text.delta","sequence_number":\#(n),"delta":"\#(text)"}"#
            )
        }
        let stream = providerSSE(events: [delta(1, "a"), delta(2, "b"), delta(2, "b"), delta(1, "a"), delta(3, "c")])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIResponses)
        #expect(decoding.text() == "abc")
        #expect(decoding.finishes() == [.truncated])
    }

    @Test func unknownEventsAreIgnoredAndTheEventNameIsAFallback() throws {
        let stream =
            "event: response.output_text.delta\ndata: {\"delta\":\"x\"}\n\n"
            + providerSSE(events: [("response.something_new", #"{"type":"response.something_new","delta":"y"}"#)])
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIResponses)
        #expect(decoding.events == [.text("x"), .finish(.truncated)])
    }
}
