import CadenceCore
import CadenceTesting
import Testing

@testable import CadenceServer

/// The replay log keeps the last 60 s of events or 16 MiB, whichever holds more, and never more
/// than its 64 MiB ceiling (issue 33, finding 6), measured on a test clock.
@Suite("Replay log bounds")
struct ReplayLogTests {
    /// A token whose event JSON plus the per-event overhead is exactly `bytes`.
    static func token(charged bytes: Int, sequence: Int) -> ResearchEvent.Kind {
        let empty = LoggedEvent(ResearchEvent(sequence: sequence, kind: .token(""))).jsonText.utf8.count
        return .token(String(repeating: "a", count: bytes - empty - ReplayLimits.eventOverhead))
    }

    /// Appends `count` events of 64 KiB to answer "a", `every` apart on `clock`.
    static func append(_ count: Int, every: Duration, to logs: AnswerLogs, clock: ManualClock, from: Int = 1) async {
        for index in 0..<count {
            if index > 0 || from > 1 { clock.advance(by: every) }
            await logs.append(token(charged: 64 << 10, sequence: from + index), to: "a")
        }
    }

    @Test("events of the last 60 s are kept past 16 MiB")
    func theWindowKeepsRecentEventsPastTheByteFloor() async throws {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: ReplayLimits(), clock: clock)
        await logs.open("a")
        // 512 events of 64 KiB = 32 MiB within 51 s: every one is younger than 60 s.
        await Self.append(512, every: .milliseconds(100), to: logs, clock: clock)
        try await logs.check("a", after: 0)
        let slice = try await logs.snapshot("a", after: 0)
        #expect(slice.events.count == 512)
    }

    @Test("once older than 60 s, events past 16 MiB go, oldest first, and the newest 16 MiB stay")
    func theByteFloorKeepsOldEvents() async throws {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: ReplayLimits(), clock: clock)
        await logs.open("a")
        // 400 events, one per second: at the end, those older than 60 s are kept only as the newest 16 MiB.
        await Self.append(400, every: .seconds(1), to: logs, clock: clock)
        let slice = try await logs.snapshot("a", after: 400 - 256)
        #expect(slice.events.count == 256, "the newest 16 MiB: 256 events of 64 KiB")
        await #expect(throws: AnswerLookupError.self) { try await logs.check("a", after: 400 - 257) }
    }

    @Test("a flood within the window stops at the byte ceiling")
    func theCeilingHoldsAgainstAFlood() async throws {
        let clock = ManualClock()
        // The default ceiling is 4 × the floor; a smaller pair keeps the flood short.
        let logs = AnswerLogs(limits: ReplayLimits(maxBytes: 4 << 20, ceilingBytes: 16 << 20), clock: clock)
        await logs.open("a")
        // 500 events of 64 KiB (31 MiB) in one instant.
        await Self.append(500, every: .zero, to: logs, clock: clock)
        let slice = try await logs.snapshot("a", after: 500 - 256)
        #expect(slice.events.count == 256, "16 MiB: 256 events of 64 KiB")
        await #expect(throws: AnswerLookupError.self) { try await logs.check("a", after: 500 - 257) }
    }

    @Test("with no window, the old count and byte limits apply at once")
    func noWindowMeansTheFloorIsTheLimit() async throws {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: ReplayLimits(maxEvents: 5, window: .zero), clock: clock)
        await logs.open("a")
        await Self.append(8, every: .milliseconds(1), to: logs, clock: clock)
        let slice = try await logs.snapshot("a", after: 3)
        #expect(slice.events.map(\.event.sequence) == [4, 5, 6, 7, 8])
        await #expect(throws: AnswerLookupError.self) { try await logs.check("a", after: 2) }
    }
}
