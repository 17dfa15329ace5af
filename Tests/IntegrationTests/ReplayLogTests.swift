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

    /// Logs `count` events of 64 KiB for one answer, `every` apart on a test clock, under `limits`,
    /// and returns the sequences still kept.
    static func kept(_ count: Int, every: Duration, limits: ReplayLimits = ReplayLimits()) async throws -> [Int] {
        let clock = ManualClock()
        let logs = AnswerLogs(limits: limits, clock: clock)
        logs.open("a", subject: "s")
        for sequence in 1...count {
            if sequence > 1 { clock.advance(by: every) }
            logs.append(token(charged: 64 << 10, sequence: sequence), to: "a")
        }
        var first = count
        while first > 0, (try? logs.check("a", of: "s", after: first - 1)) != nil { first -= 1 }
        let slice = try logs.snapshot("a", of: "s", after: first)
        return slice.events.compactMap(\.event.sequence)
    }

    @Test("events of the last 60 s are kept past 16 MiB")
    func theWindowKeepsRecentEventsPastTheByteFloor() async throws {
        // 512 events of 64 KiB = 32 MiB within 51 s: every one is younger than 60 s.
        #expect(try await Self.kept(512, every: .milliseconds(100)) == Array(1...512))
    }

    @Test("once older than 60 s, events past 16 MiB go, oldest first, and the newest 16 MiB stay")
    func theByteFloorKeepsOldEvents() async throws {
        // 400 events, one per second: those older than 60 s are kept only as the newest 16 MiB.
        #expect(try await Self.kept(400, every: .seconds(1)) == Array(145...400), "256 events of 64 KiB")
    }

    @Test("a flood within the window stops at the byte ceiling")
    func theCeilingHoldsAgainstAFlood() async throws {
        // 500 events of 64 KiB (31 MiB) in one instant. The default ceiling is 4 × the floor; a
        // smaller pair keeps the flood short.
        let limits = ReplayLimits(maxBytes: 4 << 20, ceilingBytes: 16 << 20)
        #expect(try await Self.kept(500, every: .zero, limits: limits) == Array(245...500), "16 MiB")
    }

    @Test("with no window, the old count and byte limits apply at once")
    func noWindowMeansTheFloorIsTheLimit() async throws {
        let limits = ReplayLimits(maxEvents: 5, window: .zero)
        #expect(try await Self.kept(8, every: .milliseconds(1), limits: limits) == [4, 5, 6, 7, 8])
    }
}
