import CadenceCore
import CadenceTestFixtures
import CadenceTesting
import Testing

@testable import CadenceServer

/// A reader waiting in ``AnswerLogs`` holds no task of its own: its keepalive is a deadline of the
/// read, and one alarm on the injected clock wakes every reader that has been quiet long enough.
@Suite("Quiet readers of the answer logs")
struct QuietReaderTests {
    static let quiet = Duration.seconds(15)

    /// Waits (yielding, never sleeping) until no answer in `logs` is without a waiting reader.
    static func untilEveryAnswerHasAReader(_ logs: AnswerLogs) async {
        while !logs.idleAnswers().isEmpty { await Task.yield() }
    }

    /// Answer "a" on a test clock, with one reader waiting in a read quiet for 15 s.
    static func waitingReader() async -> (ManualClock, AnswerLogs, Task<AnswerSlice, any Error>) {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: ReplayLimits(), clock: clock)
        logs.open("a", subject: "s")
        let reading = Task { try await logs.read("a", after: 0, quietFor: quiet) }
        await untilEveryAnswerHasAReader(logs)
        return (clock, logs, reading)
    }

    @Test("a read that stays quiet for its whole time returns empty and unfinished, a keepalive's turn")
    func aQuietReadEndsAtItsDeadline() async throws {
        let (clock, logs, reading) = await Self.waitingReader()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(14))
        #expect(logs.idleAnswers().isEmpty, "still waiting after 14 s")
        clock.advance(by: .seconds(1))
        let slice = try await reading.value
        #expect(slice.events.isEmpty)
        #expect(!slice.finished)
    }

    @Test("the quiet time counts from the slice sent last, not from when the reader came back after writing it")
    func quietTimeCountsFromTheLastSlice() async throws {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: ReplayLimits(), clock: clock)
        logs.open("a", subject: "s")
        logs.append(.token("hello"), to: "a")
        let sent = try await logs.read("a", after: 0, quietFor: Self.quiet)
        #expect(sent.events.count == 1)
        // Writing the slice took the whole interval: the keepalive is due the moment the reader is back.
        clock.advance(by: Self.quiet)
        let next = try await withDeadline(.seconds(30), "the keepalive's turn") {
            try await logs.read("a", after: 1, quietFor: Self.quiet, since: sent.takenAt)
        }
        #expect(next.events.isEmpty)
        #expect(!next.finished)
    }

    @Test("an event before the deadline ends the read at once, with the event")
    func anEventEndsTheReadFirst() async throws {
        let (clock, logs, reading) = await Self.waitingReader()
        clock.advance(by: .seconds(10))
        logs.append(.token("hello"), to: "a")
        let slice = try await reading.value
        #expect(slice.events.map(\.event.kind) == [.token("hello")])
    }

    @Test("a thousand quiet readers wait on one alarm, and all get their keepalive when it rings")
    func quietReadersShareOneAlarm() async throws {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: ReplayLimits(), clock: clock)
        for index in 0..<1000 { logs.open("a\(index)", subject: "s") }
        let reads = Task {
            try await withThrowingTaskGroup(of: AnswerSlice.self) { group in
                for index in 0..<1000 {
                    group.addTask { try await logs.read("a\(index)", after: 0, quietFor: Self.quiet) }
                }
                return try await group.reduce(into: [AnswerSlice]()) { $0.append($1) }
            }
        }
        await Self.untilEveryAnswerHasAReader(logs)
        await clock.waitForSleepers(1)
        #expect(clock.sleepsBegun == 1)
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: Self.quiet)
        let slices = try await reads.value
        #expect(slices.count == 1000)
        #expect(slices.allSatisfy { $0.events.isEmpty && !$0.finished })
    }

    @Test("a reader cancelled while waiting leaves no waiter behind")
    func aCancelledReaderLeaves() async throws {
        let (_, logs, reading) = await Self.waitingReader()
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(logs.idleAnswers() == ["a"])
    }
}
