package import CadenceCore

/// How every engine reports an answer's budget: the `budget` metadata of its `complete` event and
/// the `budget_exceeded` message that ends an answer which used all of it.
package enum AnswerBudget {
    /// `budget`: the time the answer took and, where they are counted, the tokens it used (input
    /// plus output), each with its limit.
    package static func metadata(time: Duration, timeLimit: Duration, tokens: (used: Int, limit: Int)? = nil) -> JSONValue {
        var object: [String: JSONValue] = [
            "time_ms": .number(milliseconds(time)), "time_limit_ms": .number(milliseconds(timeLimit)),
        ]
        if let tokens {
            object["tokens"] = .number(Double(tokens.used))
            object["token_limit"] = .number(Double(tokens.limit))
        }
        return .object(object)
    }

    /// The message of the `budget_exceeded` error; `stage` names where a research answer was.
    package static func spentMessage(_ limit: Duration, during stage: String? = nil) -> String {
        let during = stage.map { " during \($0)" } ?? ""
        return "the answer used its whole time budget (\(limit.secondsText) s)\(during); it ends here with the text so far"
    }

    /// A duration in milliseconds to two decimals, as the metadata reports times.
    package static func milliseconds(_ duration: Duration) -> Double {
        (duration.milliseconds * 100).rounded() / 100
    }
}
