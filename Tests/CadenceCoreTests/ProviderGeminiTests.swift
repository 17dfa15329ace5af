import CadenceCore
import Testing

struct ProviderGeminiTests {
    @Test func thoughtPartsAreReasoningAndARepeatedFinishIsEmittedOnce() throws {
        let stream = providerSSE(
            #"{"candidates":[{"content":{"parts":[{"text":"Let me think","thought":true}]},"finishReason":"STOP"}]}"#,
            #"{"candidates":[{"content":{"parts":[{"text":"Answer"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"thoughtsTokenCount":3,"totalTokenCount":9}}"#,
            #"{"candidates":[{"content":{"parts":[{"text":"."}]},"finishReason":"STOP"}]}"#)
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .gemini)
        #expect(
            decoding.events == [
                .reasoning("Let me think"), .text("Answer"), .text("."),
                .usage(ModelUsage(inputTokens: 4, outputTokens: 5, reasoningTokens: 3, totalTokens: 9)),
                .finish(.stop),
            ])
    }

    @Test func severalCandidatesAreChoices() throws {
        let stream = providerSSE(
            #"{"candidates":[{"index":0,"content":{"parts":[{"text":"a"}]}},{"index":1,"content":{"parts":[{"text":"b"}]},"finishReason":"SAFETY"}]}"#,
            #"{"candidates":[{"index":0,"content":{"parts":[{"text":"c"}]},"finishReason":"MAX_TOKENS"}]}"#)
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .gemini)
        #expect(decoding.text(choice: 0) == "ac")
        #expect(decoding.text(choice: 1) == "b")
        #expect(decoding.finishes(choice: 0) == [.length])
        #expect(decoding.finishes(choice: 1) == [.safety])
    }

    @Test func functionCallsAreToolCalls() throws {
        let stream = providerSSE(
            #"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"units":"c","city":"Oslo"}}}]},"finishReason":"STOP"}]}"#
        )
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .gemini)
        #expect(
            decoding.toolCalls == [
                ToolCallDelta(index: 0, name: "get_weather", argumentsDelta: #"{"city":"Oslo","units":"c"}"#)
            ])
        #expect(decoding.finishes() == [.toolCalls])
    }

    @Test func aBlockedPromptFinishesAsSafety() throws {
        let stream = providerSSE(#"{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"}}"#)
        #expect(try ModelStreamDecoder.providerDecoding(stream, dialect: .gemini).finishes() == [.safety])
    }

    @Test func anUnframedErrorWrappedInAnArrayIsAnError() throws {
        let stream =
            providerSSE(#"{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}"#)
            + "[{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The model is overloaded.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n]\n"
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .gemini)
        #expect(decoding.text() == "Hi")
        #expect(
            decoding.errors == [
                ModelError(code: "UNAVAILABLE", message: "The model is overloaded.", retryable: true, status: 503)
            ])
        #expect(decoding.finishes() == [.error])
    }

    @Test func theJSONArrayStreamWithoutSSEIsRead() throws {
        let stream =
            "[{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"One \"}]}}]}\n,\r\n"
            + "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"two\"}]},\"finishReason\": \"STOP\"}]}\n]"
        for dialect in [ModelDialect.gemini, nil] {
            let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: dialect)
            #expect(decoding.text() == "One two")
            #expect(decoding.finishes() == [.stop])
        }
    }

    @Test func noFinishReasonIsTruncation() throws {
        let stream = providerSSE(#"{"candidates":[{"content":{"parts":[{"text":"Hal"}]}}]}"#)
        #expect(
            try ModelStreamDecoder.providerDecoding(stream, dialect: .gemini).events == [
                .text("Hal"), .finish(.truncated),
            ])
    }
}
