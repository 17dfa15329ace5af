import CadenceCore

/// The parts of a `complete` event's metadata that every model-driven engine (research, chat)
/// reports the same way: what the model calls used, and what the answer used of its budgets.
enum AnswerMetadata {
    /// `usage`: `input_tokens`, `output_tokens`, `total_tokens`, and `reasoning_tokens` when the
    /// model reports them.
    static func usage(_ usage: ModelUsage) -> JSONValue {
        var object: [String: JSONValue] = [
            "input_tokens": .number(Double(usage.inputTokens)),
            "output_tokens": .number(Double(usage.outputTokens)),
            "total_tokens": .number(Double(usage.totalTokens ?? usage.inputTokens + usage.outputTokens)),
        ]
        if let reasoning = usage.reasoningTokens { object["reasoning_tokens"] = .number(Double(reasoning)) }
        return .object(object)
    }
}
