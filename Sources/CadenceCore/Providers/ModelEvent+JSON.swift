extension ModelEvent {
    /// The event as one line of compact JSON, the form `cadence decode` prints.
    ///
    /// Keys are sorted; absent optional values are left out. Each object has a `"kind"`:
    ///
    /// | kind | other keys |
    /// |---|---|
    /// | `text`, `reasoning`, `refusal` | `choice`, `text` |
    /// | `toolCall` | `choice`, `index`, `id`?, `name`?, `arguments` (this fragment) |
    /// | `usage` | `inputTokens`, `outputTokens`, `reasoningTokens`?, `cachedInputTokens`?, `totalTokens`? |
    /// | `finish` | `choice`, `reason` (``FinishReason/name``: `stop`, `length`, `toolCalls`, `contentFilter`, `refusal`, `safety`, `error`, `truncated`, or the provider's own value) |
    /// | `error` | `message`, `retryable`, `code`?, `status`? |
    ///
    /// ```swift
    /// ModelEvent.finish(.toolCalls).jsonLine()  // {"choice":0,"kind":"finish","reason":"toolCalls"}
    /// ```
    public func jsonLine() -> String {
        jsonValue.jsonText
    }

    /// The event as a JSON object (see ``jsonLine()``).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue]
        switch self {
        case .text(let text, let choice):
            members = ["kind": "text", "choice": .number(Double(choice)), "text": .string(text)]
        case .reasoning(let text, let choice):
            members = ["kind": "reasoning", "choice": .number(Double(choice)), "text": .string(text)]
        case .refusal(let text, let choice):
            members = ["kind": "refusal", "choice": .number(Double(choice)), "text": .string(text)]
        case .toolCall(let call):
            members = [
                "kind": "toolCall", "choice": .number(Double(call.choice)), "index": .number(Double(call.index)),
                "arguments": .string(call.argumentsDelta),
            ]
            members["id"] = call.id.map(JSONValue.string)
            members["name"] = call.name.map(JSONValue.string)
        case .usage(let usage):
            members = [
                "kind": "usage", "inputTokens": .number(Double(usage.inputTokens)),
                "outputTokens": .number(Double(usage.outputTokens)),
            ]
            members["reasoningTokens"] = usage.reasoningTokens.map { .number(Double($0)) }
            members["cachedInputTokens"] = usage.cachedInputTokens.map { .number(Double($0)) }
            members["totalTokens"] = usage.totalTokens.map { .number(Double($0)) }
        case .finish(let reason, let choice):
            members = ["kind": "finish", "choice": .number(Double(choice)), "reason": .string(reason.name)]
        case .error(let error):
            members = ["kind": "error", "message": .string(error.message), "retryable": .bool(error.retryable)]
            members["code"] = error.code.map(JSONValue.string)
            members["status"] = error.status.map { .number(Double($0)) }
        }
        return .object(members)
    }
}
