import CadenceBenchmarkKit
import NIOConcurrencyHelpers
import NIOCore

/// The answers of a floor server and their production, whatever carries their frames to the
/// readers: `POST /v1/answers` starts an answer (its query is a ``TimestampEngine/Plan``), every
/// answer waits for ``go()``, then produces its steps on its plan's fixed schedule, on an event loop of
/// its own, builds each step's frames once (``FloorAnswer``) and hands them to `deliver`.
final class FloorProduction: Sendable {
    /// One step of one answer, built once for all of its readers.
    struct Step: Sendable {
        /// The index of the answer (``FloorProduction/answerIndex(_:)``).
        var answer: Int
        /// The SSE frames of the step.
        var frames: String
        /// Whether this is the answer's last step (its `complete` is in `frames`).
        var isLast: Bool
    }

    private let loops: [any EventLoop]
    private let answers = NIOLockedValueBox<[FloorAnswer]>([])
    private let deliver: @Sendable (Step) -> Void

    init(loops: [any EventLoop], deliver: @escaping @Sendable (Step) -> Void) {
        self.loops = loops
        self.deliver = deliver
    }

    /// Starts an answer for `query` and returns its id and index.
    func startAnswer(query: String) -> (id: String, index: Int) {
        answers.withLockedValue { answers in
            // As long as Cadence's ids (`ans_` and 32 hexadecimal digits), so the heads are as long too.
            let number = String(answers.count)
            let id = "ans_" + String(repeating: "0", count: 32 - number.count) + number
            answers.append(FloorAnswer(id: id, plan: TimestampEngine.Plan(query: query)))
            return (id, answers.count - 1)
        }
    }

    /// The index of the answer named `id`, if there is one.
    func answerIndex(_ id: Substring) -> Int? {
        guard id.hasPrefix("ans_"), let index = Int(id.dropFirst(4)) else { return nil }
        return answers.withLockedValue { index < $0.count ? index : nil }
    }

    /// Every answer started so far begins producing now.
    func go() {
        let start = NIODeadline.now()
        for (index, answer) in answers.withLockedValue({ $0 }).enumerated() {
            let home = loops[index % loops.count]
            home.scheduleTask(deadline: start + Self.timeAmount(answer.due(0))) {
                self.produce(answer, index: index, step: 0, start: start, on: home)
            }
        }
    }

    /// Builds step `step` of an answer, delivers it, and schedules the next.
    private func produce(_ answer: FloorAnswer, index: Int, step: Int, start: NIODeadline, on home: any EventLoop) {
        let elapsed = Duration.nanoseconds((NIODeadline.now() - start).nanoseconds)
        let last = step == answer.steps - 1
        deliver(Step(answer: index, frames: answer.frames(step, elapsed: elapsed), isLast: last))
        guard !last else { return }
        home.scheduleTask(deadline: start + Self.timeAmount(answer.due(step + 1))) {
            self.produce(answer, index: index, step: step + 1, start: start, on: home)
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
