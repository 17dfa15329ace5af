/// Provider streams written out event by event, as `(event name, data)` pairs, for the decoders'
/// tests and the relay's: streams no capture beside the repository holds.
public enum ProviderEventSamples {
    /// OpenAI Responses: a reasoning summary, a refusal, then a function call whose arguments
    /// arrive in two pieces, and usage with reasoning tokens.
    public static let responsesReasoningRefusalToolCall: [(String, String)] = [
        (
            "response.reasoning_summary_text.delta",
            #"{"type":"response.reasoning_summary_text.delta","sequence_number":1,"delta":"Plan"}"#
        ),
        ("response.refusal.delta", #"{"type":"response.refusal.delta","sequence_number":2,"delta":"No"}"#),
        (
            "response.output_item.added",
            #"{"type":"response.output_item.added","sequence_number":3,"output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":""}}"#
        ),
        (
            "response.function_call_arguments.delta",
            #"{"type":"response.function_call_arguments.delta","sequence_number":4,"output_index":1,"delta":"{\"city\":"}"#
        ),
        (
            "response.function_call_arguments.delta",
            #"{"type":"response.function_call_arguments.delta","sequence_number":5,"output_index":1,"delta":"\"Paris\"}"}"#
        ),
        (
            "response.completed",
            #"{"type":"response.completed","sequence_number":6,"response":{"status":"completed","usage":{"input_tokens":5,"output_tokens":7,"total_tokens":12,"output_tokens_details":{"reasoning_tokens":3}}}}"#
        ),
    ]
}
