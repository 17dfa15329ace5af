import CadenceCore
import Testing

struct ProviderModelEventJSONTests {
    @Test(arguments: [
        (ModelEvent.text("Hi \"you\"\n"), #"{"choice":0,"kind":"text","text":"Hi \"you\"\n"}"#),
        (.reasoning("hm", choice: 1), #"{"choice":1,"kind":"reasoning","text":"hm"}"#),
        (.refusal("no"), #"{"choice":0,"kind":"refusal","text":"no"}"#),
        (
            .toolCall(ToolCallDelta(index: 1, id: "c", name: "f", argumentsDelta: "{")),
            #"{"arguments":"{","choice":0,"id":"c","index":1,"kind":"toolCall","name":"f"}"#
        ),
        (
            .toolCall(ToolCallDelta(index: 0, argumentsDelta: "}")),
            #"{"arguments":"}","choice":0,"index":0,"kind":"toolCall"}"#
        ),
        (
            .usage(ModelUsage(inputTokens: 3, outputTokens: 4, totalTokens: 7)),
            #"{"inputTokens":3,"kind":"usage","outputTokens":4,"totalTokens":7}"#
        ),
        (.finish(.toolCalls), #"{"choice":0,"kind":"finish","reason":"toolCalls"}"#),
        (.finish(.other("pause_turn"), choice: 2), #"{"choice":2,"kind":"finish","reason":"pause_turn"}"#),
        (
            .error(ModelError(code: "overloaded_error", message: "Overloaded", retryable: true, status: 529)),
            #"{"code":"overloaded_error","kind":"error","message":"Overloaded","retryable":true,"status":529}"#
        ),
    ])
    func linesAreStable(event: ModelEvent, line: String) {
        #expect(event.jsonLine() == line)
        #expect((try? JSONValue(parsing: line)) == event.jsonValue)
    }

    @Test(arguments: [
        FinishReason.stop, .length, .toolCalls, .contentFilter, .refusal, .safety, .error, .truncated, .other("x"),
    ])
    func finishReasonNamesRoundTrip(reason: FinishReason) {
        #expect(FinishReason(name: reason.name) == reason)
    }

    @Test func eventsKnowTheirChoice() {
        #expect(ModelEvent.text("a", choice: 3).choice == 3)
        #expect(ModelEvent.toolCall(ToolCallDelta(choice: 2, index: 0)).choice == 2)
        #expect(ModelEvent.usage(ModelUsage()).choice == nil)
    }
}
