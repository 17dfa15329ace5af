import CadenceCore
import CadenceEngine

/// An answer engine whose every token says when it was produced: its content is the
/// `CLOCK_MONOTONIC` time in nanoseconds at the moment the engine hands it to the server. A reader
/// subtracts it from its own clock on arrival, which gives the event's way through the registry
/// (and PostgreSQL), the feed, the socket and the reader's decoder.
///
/// The query sets the answer's shape, as `key=value` words (see ``Plan``): how many tokens, how far
/// apart, and an offset so that answers do not all produce at the same instant. Every answer waits
/// for the ``StartGate`` first, so readers can connect before anything is produced.
struct TimestampEngine: AnswerEngine {
    /// One answer's shape, read from its query: `tokens=100 interval_ms=100 phase_us=2500`.
    struct Plan: Sendable, Equatable {
        var tokens = 100
        /// Between two tokens; zero produces them as fast as the server takes them.
        var interval = Duration.milliseconds(100)
        /// How long after the gate opens the first token comes.
        var phase = Duration.zero

        init(tokens: Int = 100, interval: Duration = .milliseconds(100), phase: Duration = .zero) {
            self.tokens = tokens
            self.interval = interval
            self.phase = phase
        }

        init(query: String) {
            for word in query.split(separator: " ") {
                let parts = word.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                switch parts[0] {
                case "tokens": tokens = value
                case "interval_ms": interval = .milliseconds(value)
                case "phase_us": phase = .microseconds(value)
                default: continue
                }
            }
        }

        var query: String {
            let (seconds, attoseconds) = interval.components
            let (phaseSeconds, phaseAttoseconds) = phase.components
            let intervalMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            let phaseMicroseconds = phaseSeconds * 1_000_000 + phaseAttoseconds / 1_000_000_000_000
            return "tokens=\(tokens) interval_ms=\(intervalMilliseconds) phase_us=\(phaseMicroseconds)"
        }
    }

    let gate: StartGate

    func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        let plan = Plan(query: request.query)
        let (stream, continuation) = AsyncThrowingStream<ResearchEvent.Kind, any Error>.makeStream()
        let gate = self.gate
        let task = Task {
            let start = await gate.wait()
            let clock = ContinuousClock()
            for index in 0..<plan.tokens {
                if plan.interval > .zero {
                    // On a schedule fixed from the start, so a late wake-up does not delay the rest.
                    do { try await clock.sleep(until: start + plan.phase + plan.interval * index) } catch { break }
                } else if Task.isCancelled {
                    break
                }
                continuation.yield(.token(String(monotonicNanoseconds()) + " "))
            }
            continuation.yield(.complete(Completion(metadata: ["tokens": .number(Double(plan.tokens))])))
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
