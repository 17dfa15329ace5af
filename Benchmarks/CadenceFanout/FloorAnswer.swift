import CadenceBenchmarkKit
import CadenceCore

/// One answer on a floor server (``FloorProduction``): its plan, read from the query the way
/// ``TimestampEngine`` reads it, and the `ResearchEventEncoder` frames Cadence writes for its events,
/// built once per step and written as they are to every reader. A token's content starts with the
/// `CLOCK_MONOTONIC` time at which its frame was built, as the engine's tokens do.
///
/// On Cadence the last token, `: flush-tokens` and `complete` are ready together and reach a reader
/// in one write; the floor's last step holds all three.
struct FloorAnswer: Sendable {
    let id: String
    let plan: TimestampEngine.Plan

    /// The steps of the answer: one per token, and one for an answer without tokens.
    var steps: Int { max(1, plan.tokens) }

    /// When step `step` (from 0) is due, after the start signal: on the plan's fixed schedule.
    func due(_ step: Int) -> Duration {
        plan.phase + plan.interval * step
    }

    /// The SSE frames of step `step`, built now: token number `step + 1` and, for the last step, the
    /// end of the answer. `elapsed` is the time since the start signal, which `complete` reports as the
    /// time used (as Cadence's time budget does).
    func frames(_ step: Int, elapsed: Duration) -> String {
        var frames = ""
        if step < plan.tokens {
            let token = plan.token(step, at: monotonicNanoseconds())
            frames += ResearchEventEncoder.frame(ResearchEvent(sequence: step + 1, kind: .token(token)))
        }
        guard step == steps - 1 else { return frames }
        frames += ResearchEventEncoder.comment("flush-tokens")
        let budget: JSONValue = [
            "time_ms": .number(Self.milliseconds(elapsed)), "time_limit_ms": .number(Self.milliseconds(.seconds(600))),
        ]
        let completion = Completion(metadata: ["budget": budget, "tokens": .number(Double(plan.tokens))])
        let complete = ResearchEvent(sequence: plan.tokens + 1, kind: .complete(completion))
        return frames + ResearchEventEncoder.frame(complete)
    }

    /// Milliseconds with two decimals.
    private static func milliseconds(_ duration: Duration) -> Double {
        (duration.seconds * 100_000).rounded() / 100
    }
}
