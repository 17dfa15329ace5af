import CadenceClient
import CadenceTestFixtures
import CadenceTesting
import Testing

/// ``DeadlineTimer`` keeps one timer for its machine's earliest deadline. Idle deadlines move later
/// with every event, and the timer already set stays then: it wakes the driver early (which the
/// machines allow), instead of a new task and clock sleep per event.
@Suite("DeadlineTimer")
struct DeadlineTimerTests {
    @Test func aLaterDeadlineKeepsTheTimerAlreadySetWhichFiresEarly() async throws {
        let clock = ManualClock()
        var timer = DeadlineTimer(clock)
        let (fires, fired) = AsyncStream<Duration>.makeStream()
        timer.keep(.seconds(10)) { fired.yield(clock.now.offset) }
        await clock.waitForSleeps { $0 == [.seconds(10)] }
        timer.keep(.seconds(20)) { fired.yield(clock.now.offset) }
        clock.advance(by: .seconds(10))
        let first = try await withDeadline(.seconds(30), "the timer set for 10 s firing") {
            var iterator = fires.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(first == .seconds(10))
        // The driver, woken early, says so and keeps the later deadline: a timer for it now.
        timer.fired()
        timer.keep(.seconds(20)) { fired.yield(clock.now.offset) }
        await clock.waitForSleeps { $0 == [.seconds(20)] }
        timer.cancel()
    }

    @Test func anEarlierDeadlineReplacesTheTimer() async throws {
        let clock = ManualClock()
        var timer = DeadlineTimer(clock)
        timer.keep(.seconds(20)) {}
        await clock.waitForSleeps { $0 == [.seconds(20)] }
        timer.keep(.seconds(5)) {}
        try await withDeadline(.seconds(30), "only a sleep until 5 s") {
            await clock.waitForSleeps { $0 == [.seconds(5)] }
        }
        timer.keep(nil) {}
        try await withDeadline(.seconds(30), "no sleep once there is no deadline") {
            await clock.waitForSleeps { $0.isEmpty }
        }
    }
}
