import CadenceBenchmarkKit
import CadenceCore
import NIOCore

/// One answer on the floor server (``FloorServer``): its plan, read from the query the way
/// ``TimestampEngine`` reads it, and the bytes Cadence writes on the wire for its events. Each write is
/// one HTTP/1.1 chunk holding `ResearchEventEncoder` frames, built once and written as is to every
/// reader. A token's content starts with the `CLOCK_MONOTONIC` time at which its chunk was built, as
/// the engine's tokens do.
///
/// On Cadence the last token, `: flush-tokens` and `complete` are ready together and reach a reader
/// in one chunk, followed by the chunked body's end; the floor writes the last step the same way.
struct FloorAnswer: Sendable {
    let id: String
    let plan: TimestampEngine.Plan

    /// The writes of the answer: one per token, and one for an answer without tokens.
    var steps: Int { max(1, plan.tokens) }

    /// When step `step` (from 0) is due, after the start signal: on the plan's fixed schedule.
    func due(_ step: Int) -> Duration {
        plan.phase + plan.interval * step
    }

    /// The chunk of step `step`, built now: token number `step + 1` and, for the last step, the end
    /// of the answer. `elapsed` is the time since the start signal, which `complete` reports as the
    /// time used (as Cadence's time budget does).
    func chunk(_ step: Int, elapsed: Duration) -> ByteBuffer {
        var frames = ""
        if step < plan.tokens {
            let token = plan.token(step, at: monotonicNanoseconds())
            frames += ResearchEventEncoder.frame(ResearchEvent(sequence: step + 1, kind: .token(token)))
        }
        guard step == steps - 1 else { return Self.chunk(frames) }
        frames += ResearchEventEncoder.comment("flush-tokens")
        let budget: JSONValue = [
            "time_ms": .number(Self.milliseconds(elapsed)), "time_limit_ms": .number(Self.milliseconds(.seconds(600))),
        ]
        let completion = Completion(metadata: ["budget": budget, "tokens": .number(Double(plan.tokens))])
        frames += ResearchEventEncoder.frame(ResearchEvent(sequence: plan.tokens + 1, kind: .complete(completion)))
        var chunk = Self.chunk(frames)
        chunk.writeString("0\r\n\r\n")
        return chunk
    }

    /// `body` as one chunk of a chunked HTTP/1.1 body: its length in hexadecimal, CRLF, the bytes, CRLF.
    static func chunk(_ body: String) -> ByteBuffer {
        let length = String(body.utf8.count, radix: 16)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(length.utf8.count + body.utf8.count + 4)
        buffer.writeString(length)
        buffer.writeString("\r\n")
        buffer.writeString(body)
        buffer.writeString("\r\n")
        return buffer
    }

    /// Milliseconds with two decimals.
    private static func milliseconds(_ duration: Duration) -> Double {
        (duration.seconds * 100_000).rounded() / 100
    }
}
