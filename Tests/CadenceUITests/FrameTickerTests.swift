import CadenceCore
import CadenceTesting
import CadenceUI
import Testing

@MainActor
@Suite struct FrameTickerTests {
    @Test func framesComeEveryIntervalUntilTheFrameSaysStop() async throws {
        let clock = ManualClock.stepping()
        var times: [Duration] = []
        try await FrameTicker(clock: clock, interval: .milliseconds(16)).run { now in
            times.append(now)
            return times.count < 5
        }
        #expect(times == [16, 32, 48, 64, 80].map { .milliseconds($0) })
    }

    @Test func aLateFrameRestartsTheScheduleInsteadOfBursting() async throws {
        // The third sleep wakes 50 ms late.
        let clock = ManualClock.stepping(lateness: { $0 == 3 ? .milliseconds(50) : .zero })
        var times: [Duration] = []
        try await FrameTicker(clock: clock, interval: .milliseconds(10)).run { now in
            times.append(now)
            return times.count < 5
        }
        #expect(times == [10, 20, 80, 90, 100].map { .milliseconds($0) })
    }

    @Test func cancellationEndsTheLoop() async {
        let clock = ManualClock.stepping()
        var frames = 0
        await #expect(throws: CancellationError.self) {
            try await FrameTicker(clock: clock).run { _ in
                frames += 1
                if frames == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                return true
            }
        }
        #expect(frames == 3)
    }

    /// Idle after its first frame, the loop runs no frame until woken, and time keeps counting from
    /// the start: the second frame comes one interval after the wake-up, not after the first frame.
    @Test func anIdleLoopWaitsForAWakeUp() async throws {
        let clock = ManualClock.stepping()
        let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var times: [Duration] = []
        let running = Task { @MainActor in
            try await FrameTicker(clock: clock, interval: .milliseconds(16)).run(
                wakingOn: wakeUps, whenIdle: { times.count == 1 }
            ) { now in
                times.append(now)
                return times.count < 3
            }
        }
        await settle { times.count == 1 }
        for _ in 0..<100 { await Task.yield() }
        #expect(times.count == 1, "no frame while idle")
        clock.advance(by: .milliseconds(500))
        wake.yield()
        try await running.value
        #expect(times == [16, 532, 548].map { .milliseconds($0) })
    }

    @Test func cancellingAnIdleLoopEndsIt() async {
        let (wakeUps, _) = AsyncStream.makeStream(of: Void.self)
        var frames = 0
        let running = Task { @MainActor in
            try await FrameTicker(clock: ManualClock.stepping()).run(wakingOn: wakeUps, whenIdle: { true }) { _ in
                frames += 1
                return true
            }
        }
        await settle { frames == 1 }
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(frames == 1)
    }

    @Test func drivesAStreamingAnswerToTheEndOfItsAnimation() async throws {
        let model = AnswerViewModel(id: "a", query: "q")
        let words = "A paced answer with **bold** words and a citation [1].\n\nSecond paragraph, slowly.".split(
            separator: " ", omittingEmptySubsequences: false)
        var frames = 0
        try await FrameTicker(clock: ManualClock.stepping()).run { now in
            frames += 1
            if frames <= words.count {
                model.apply(.textAppended((frames == 1 ? "" : " ") + words[frames - 1]), at: now)
            } else if frames == words.count + 1 {
                model.apply(.completed(AnswerCompletion(reason: .completed, text: model.text)), at: now)
            }
            model.frame(now: now)
            return (model.needsFrames || model.isStreaming) && frames < 1_000
        }
        #expect(frames > words.count && frames < 1_000)
        #expect(model.visibleText == words.joined(separator: " "))
        #expect(model.showsActions)
    }
}
