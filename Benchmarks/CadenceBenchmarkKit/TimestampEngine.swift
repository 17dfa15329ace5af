package import CadenceCore
import CadenceEngine

/// An answer engine whose every token says when it was produced: its content starts with the
/// `CLOCK_MONOTONIC` time in nanoseconds at the moment the engine hands it to the server. A reader
/// subtracts it from its own clock on arrival, which gives the event's way through the registry
/// (and PostgreSQL), the feed, the socket and the reader.
///
/// The query sets the answer's shape, as `key=value` words (see ``Plan``): how many tokens, how far
/// apart, an offset so that answers do not all produce at the same instant, how long each token is,
/// and whether the answer announces itself and holds its end. Every answer waits for the node's
/// start gate first, so readers can connect before anything is produced.
package struct TimestampEngine: AnswerEngine {
    /// One answer's shape, read from its query: `tokens=100 interval_ms=100 phase_us=2500`, and
    /// optionally `token_bytes=100 ready=1 hold=1`.
    package struct Plan: Sendable, Equatable {
        package var tokens = 100
        /// Between two tokens; zero produces them as fast as the server takes them.
        package var interval = Duration.milliseconds(100)
        /// How long after the gate opens the first token comes.
        package var phase = Duration.zero
        /// Each token's length in UTF-8 bytes: the time, a space, then words (no digits) up to this
        /// length, every fourth token ending its paragraph with a blank line. 0 (the default), or less
        /// than the time needs, sends the time and a space alone.
        package var tokenBytes = 0
        /// Send a research stage (`synthesis_started`) before waiting for the start gate, so a
        /// client sees that its stream is connected and read.
        package var announcesStart = false
        /// After the last token, wait for the node's end gate before `complete`: the stream stays open
        /// with the whole text delivered.
        package var holdsEnd = false

        package init(
            tokens: Int = 100, interval: Duration = .milliseconds(100), phase: Duration = .zero, tokenBytes: Int = 0,
            announcesStart: Bool = false, holdsEnd: Bool = false
        ) {
            self.tokens = tokens
            self.interval = interval
            self.phase = phase
            self.tokenBytes = tokenBytes
            self.announcesStart = announcesStart
            self.holdsEnd = holdsEnd
        }

        package init(query: String) {
            for word in query.split(separator: " ") {
                let parts = word.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                switch parts[0] {
                case "tokens": tokens = value
                case "interval_ms": interval = .milliseconds(value)
                case "phase_us": phase = .microseconds(value)
                case "token_bytes": tokenBytes = value
                case "ready": announcesStart = value != 0
                case "hold": holdsEnd = value != 0
                default: continue
                }
            }
        }

        package var query: String {
            let (seconds, attoseconds) = interval.components
            let (phaseSeconds, phaseAttoseconds) = phase.components
            let intervalMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            let phaseMicroseconds = phaseSeconds * 1_000_000 + phaseAttoseconds / 1_000_000_000_000
            return "tokens=\(tokens) interval_ms=\(intervalMilliseconds) phase_us=\(phaseMicroseconds)"
                + (tokenBytes > 0 ? " token_bytes=\(tokenBytes)" : "") + (announcesStart ? " ready=1" : "")
                + (holdsEnd ? " hold=1" : "")
        }

        /// Token number `index` (from 0), produced at `nanoseconds`: the time, a space, and words up
        /// to ``tokenBytes``.
        package func token(_ index: Int, at nanoseconds: Int64) -> String {
            let stamp = String(nanoseconds) + " "
            let end = index % 4 == 3 ? "\n\n" : " "
            let room = tokenBytes - stamp.utf8.count - end.utf8.count
            guard room > 0 else { return stamp }
            return stamp + Self.filler.prefix(room) + end
        }

        /// Words without digits, longer than any token needs.
        private static let filler = String(
            repeating: "the answer streams word by word with sources and citations as the model writes ",
            count: 1 + (1 << 16) / 80)
    }

    let gate: EngineGate
    let end: EngineGate

    /// An engine whose answers start when `gate` opens and, with ``Plan/holdsEnd``, complete when
    /// `end` opens.
    package init(gate: EngineGate, end: EngineGate) {
        self.gate = gate
        self.end = end
    }

    package func answer(_ request: AnswerRequest) -> AsyncThrowingStream<ResearchEvent.Kind, any Error> {
        let plan = Plan(query: request.query)
        let (stream, continuation) = AsyncThrowingStream<ResearchEvent.Kind, any Error>.makeStream()
        let (gate, end) = (self.gate, self.end)
        let task = Task {
            if plan.announcesStart { continuation.yield(.synthesisStarted(message: "waiting for the start signal")) }
            let start = await gate.wait()
            let clock = ContinuousClock()
            for index in 0..<plan.tokens {
                if plan.interval > .zero {
                    // On a schedule fixed from the start, so a late wake-up does not delay the rest.
                    do { try await clock.sleep(until: start + plan.phase + plan.interval * index) } catch { break }
                } else if Task.isCancelled {
                    break
                }
                continuation.yield(.token(plan.token(index, at: monotonicNanoseconds())))
            }
            if plan.holdsEnd { _ = await end.wait() }
            continuation.yield(.complete(Completion(metadata: ["tokens": .number(Double(plan.tokens))])))
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
