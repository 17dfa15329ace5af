/// A clock for tests that never waits for real. It records every sleep; in `.immediate` mode a
/// sleep returns at once, in `.untilCancelled` mode it suspends until its task is cancelled.
struct RecordingClock: Clock {
    enum Mode: Sendable {
        case immediate, untilCancelled
    }

    actor Log {
        private(set) var sleeps: [Duration] = []
        private(set) var cancelledSleeps = 0
        func record(_ duration: Duration) { sleeps.append(duration) }
        func recordCancellation() { cancelledSleeps += 1 }
    }

    let mode: Mode
    let log = Log()

    var now: ContinuousClock.Instant { .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        await log.record(ContinuousClock.now.duration(to: deadline))
        switch mode {
        case .immediate:
            try Task.checkCancellation()
        case .untilCancelled:
            let (stream, continuation) = AsyncStream<Never>.makeStream()
            await withTaskCancellationHandler {
                for await _ in stream {}
            } onCancel: {
                continuation.finish()
            }
            await log.recordCancellation()
            throw CancellationError()
        }
    }
}
