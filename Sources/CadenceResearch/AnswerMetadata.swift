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

    /// `budget`: the time the answer took and the tokens it used (input plus output), each with its limit.
    static func budget(time: Duration, timeLimit: Duration, tokens: Int, tokenLimit: Int) -> JSONValue {
        .object([
            "time_ms": .number(milliseconds(time)),
            "time_limit_ms": .number(milliseconds(timeLimit)),
            "tokens": .number(Double(tokens)),
            "token_limit": .number(Double(tokenLimit)),
        ])
    }

    /// A duration in milliseconds, to two decimals.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        let exact = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return (exact * 100).rounded() / 100
    }

    /// A duration in seconds for messages: `60`, or `0.5`.
    static func seconds(_ duration: Duration) -> String {
        duration.secondsText
    }
}
