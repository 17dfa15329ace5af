/// Which choices a stream has shown and which have finished, so that each choice gets exactly one
/// ``ModelEvent/finish(_:choice:)``.
struct ChoiceTracker: Sendable, Hashable {
    /// Choices in order of first appearance.
    private(set) var seen: [Int] = []
    private var finished: Set<Int> = []
    /// Whether the stream's own ending arrived (`[DONE]`, `message_stop`, `"done": true`, …).
    var ended = false

    /// Records that `choice` appeared.
    mutating func note(_ choice: Int) {
        if !seen.contains(choice) { seen.append(choice) }
    }

    func isFinished(_ choice: Int) -> Bool {
        finished.contains(choice)
    }

    /// The finish event for `choice`, or nothing when it has already finished.
    mutating func finish(_ choice: Int, _ reason: FinishReason) -> [ModelEvent] {
        note(choice)
        guard finished.insert(choice).inserted else { return [] }
        return [.finish(reason, choice: choice)]
    }

    /// Finish events for every unfinished choice, counting choice 0 as seen when none was.
    mutating func finishUnfinished(_ reason: FinishReason) -> [ModelEvent] {
        if seen.isEmpty { seen.append(0) }
        return seen.flatMap { finish($0, reason) }
    }

    /// The stream's own ending arrived: every unfinished choice finishes with `reason`, and nothing
    /// is due when the connection closes.
    mutating func endStream(_ reason: FinishReason) -> [ModelEvent] {
        ended = true
        return finishUnfinished(reason)
    }

    /// The finish events due when the connection closes: none after the stream's own ending, else
    /// ``FinishReason/truncated`` for every unfinished choice.
    mutating func finishAtClose() -> [ModelEvent] {
        ended ? [] : finishUnfinished(.truncated)
    }
}
