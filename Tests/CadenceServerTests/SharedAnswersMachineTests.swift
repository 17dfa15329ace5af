import CadenceCore
import Testing

@testable import CadenceServer

/// The decisions of shared answers, with no database: each test feeds the machine what happened and
/// reads what it says to do.
@Suite struct SharedAnswersMachineTests {
    typealias Action = SharedAnswersMachine.Action

    /// Leases of 10 s (a heartbeat every 2 s) and a day's retention (a purge every 30 heartbeats).
    static func machine(retention: Duration = .seconds(24 * 3600)) -> SharedAnswersMachine {
        let configuration = try! PostgresConfiguration(
            url: "postgres://cadence@127.0.0.1:5432/cadence", leaseTimeout: .seconds(10), retention: retention)
        return SharedAnswersMachine(configuration: configuration, random: SplitMix64(seed: 7))
    }

    static func row(_ lastSequence: Int, ended: Bool = false) -> AnswerRow {
        AnswerRow(subject: "reader", lastSequence: lastSequence, ended: ended, purged: false)
    }

    /// A machine that mirrors answer `id`, produced by another node, up to `lastSequence`, with no
    /// fetch in flight.
    static func mirroring(_ id: String, through lastSequence: Int) -> SharedAnswersMachine {
        var machine = machine()
        #expect(machine.loaded(id, row(lastSequence)) == [.fetch(answerID: id, after: lastSequence)])
        #expect(machine.fetched(id, row(lastSequence)) == [])
        return machine
    }

    // MARK: Leases

    @Test func aHeartbeatRenewsTheLeasesOnlyOfANodeThatOwnsAnswers() {
        var machine = Self.machine()
        #expect(!machine.heartbeat(unread: []).contains(.renew))
        machine.started("a1")
        let actions = machine.heartbeat(unread: [])
        #expect(actions.contains(.renew))
        #expect(machine.leasesRenewed(["a1"]) == [])
        machine.engineStopped("a1")
        #expect(!machine.heartbeat(unread: []).contains(.renew))
    }

    @Test func anAnswerTheRenewalNoLongerRunsWasEndedElsewhereAndItsEngineStops() {
        var machine = Self.machine()
        machine.started("a1")
        machine.started("a2")
        _ = machine.appended("a1", .committed(through: 4, ending: false))
        _ = machine.heartbeat(unread: [])
        // a1 was cancelled on another node: the journal renews only a2.
        #expect(machine.leasesRenewed(["a2"]) == [.stopEngine("a1"), .fetch(answerID: "a1", after: 4)])
    }

    @Test func anAnswerStartedWhileTheRenewalRunsIsNotTakenForEndedElsewhere() {
        var machine = Self.machine()
        machine.started("a1")
        _ = machine.heartbeat(unread: [])
        machine.started("a2")  // created after the renewal's statement read the table
        #expect(machine.leasesRenewed(["a1"]) == [])
    }

    // MARK: Take-over

    @Test func everyHeartbeatLooksForExpiredLeasesAndATakeOverIsReadBackIntoTheMirror() {
        var machine = Self.mirroring("r1", through: 2)
        #expect(machine.heartbeat(unread: []).contains(.takeOver))
        #expect(machine.fetched("r1", Self.row(2)) == [])
        // This node ended r1 as interrupted: the mirror reads the ending.
        #expect(machine.ended("r1") == [.fetch(answerID: "r1", after: 2)])
        #expect(machine.fetched("r1", Self.row(3, ended: true)) == [])
        #expect(!machine.heartbeat(unread: []).contains(.fetch(answerID: "r1", after: 3)))
        // An answer this node does not mirror needs nothing more.
        #expect(machine.ended("elsewhere") == [])
    }

    @Test func takingOverThisNodesOwnExpiredAnswerStopsItsEngine() {
        var machine = Self.machine()
        machine.started("a1")
        #expect(machine.ended("a1") == [.stopEngine("a1"), .fetch(answerID: "a1", after: 0)])
    }

    // MARK: Purge

    @Test func purgesComeEveryQuarterOfTheRetentionAtMostAMinuteApart() {
        var machine = Self.machine()  // heartbeats 2 s apart, a quarter of the retention is 6 h: every 60 s
        let purges = (1...90).filter { _ in machine.heartbeat(unread: []).contains(.purge) }
        #expect(purges.count == 3)
        var short = Self.machine(retention: .seconds(20))  // a quarter is 5 s: every second heartbeat
        #expect((1...10).filter { _ in short.heartbeat(unread: []).contains(.purge) }.count == 5)
        var none = Self.machine(retention: .zero)  // under one heartbeat: every heartbeat
        #expect((1...4).allSatisfy { _ in none.heartbeat(unread: []).contains(.purge) })
    }

    @Test func thePurgeFallsOnTheThirtiethHeartbeat() {
        var machine = Self.machine()
        for _ in 1...29 { #expect(!machine.heartbeat(unread: []).contains(.purge)) }
        #expect(machine.heartbeat(unread: []).contains(.purge))
    }

    // MARK: Notifications

    @Test func aLostNotificationIsCaughtUpByTheNextHeartbeatWithNothingDoubled() {
        var machine = Self.mirroring("r1", through: 3)
        // The notification for events 4 and 5 never arrives; the heartbeat compares the mirror anyway,
        // from where the mirror stands.
        #expect(machine.heartbeat(unread: []).first == .fetch(answerID: "r1", after: 3))
        #expect(machine.fetched("r1", Self.row(5)) == [])
        // The notification comes late: the mirror already holds event 5, so nothing is read again.
        #expect(machine.notified("r1", sequence: 5) == [])
        #expect(machine.notified("r1", sequence: 6) == [.fetch(answerID: "r1", after: 5)])
    }

    @Test func notificationsDuringAFetchMakeExactlyOneMoreFetchFromTheNewPosition() {
        var machine = Self.mirroring("r1", through: 1)
        #expect(machine.notified("r1", sequence: 2) == [.fetch(answerID: "r1", after: 1)])
        #expect(machine.notified("r1", sequence: 3) == [])
        #expect(machine.notified("r1", sequence: 4) == [])
        #expect(machine.fetched("r1", Self.row(3)) == [.fetch(answerID: "r1", after: 3)])
        #expect(machine.fetched("r1", Self.row(4)) == [])
        #expect(machine.notified("r1", sequence: 4) == [])
    }

    @Test func listeningAgainComparesEveryUnfinishedMirror() {
        var machine = Self.mirroring("r1", through: 1)
        #expect(machine.loaded("r2", Self.row(7, ended: true)) == [])
        #expect(machine.listening() == [.fetch(answerID: "r1", after: 1)])
    }

    @Test func anAnswerFoundEndedWhileThisNodeRunsItsEngineStopsTheEngine() {
        var machine = Self.machine()
        machine.started("a1")
        #expect(machine.notified("a1", sequence: 1) == [.fetch(answerID: "a1", after: 0)])
        #expect(machine.fetched("a1", Self.row(1, ended: true)) == [.stopEngine("a1")])
        #expect(machine.batchReady("a1") == [.append(answerID: "a1", expecting: 0, delay: .zero)])
    }

    // MARK: Appends

    @Test func eachBatchIsAppendedExpectingTheSequenceTheLastOneReached() {
        var machine = Self.machine()
        machine.started("a1")
        #expect(machine.batchReady("a1") == [.append(answerID: "a1", expecting: 0, delay: .zero)])
        #expect(machine.appended("a1", .committed(through: 3, ending: false)) == [])
        #expect(machine.batchReady("a1") == [.append(answerID: "a1", expecting: 3, delay: .zero)])
        #expect(machine.appended("a1", .committed(through: 4, ending: true)) == [])
        #expect(machine.batchReady("a1") == [])
        // The owner's own appends fill its mirror: no notification of them is fetched.
        #expect(machine.notified("a1", sequence: 4) == [])
    }

    @Test func aFailedAppendThatDidCommitIsRetriedWithTheSameExpectationAndNeverDoubled() {
        var machine = Self.machine()
        machine.started("a1")
        _ = machine.appended("a1", .committed(through: 3, ending: false))
        #expect(machine.batchReady("a1") == [.append(answerID: "a1", expecting: 3, delay: .zero)])
        // The statement committed (3 → 5) but its reply was lost with the connection.
        guard case .append(_, let expecting, _) = machine.storeFailed(.append("a1")).first else {
            Issue.record("a failed append is not tried again")
            return
        }
        #expect(expecting == 3)
        // The retry is refused (the table is at 5, not 3): the batch is in, the mirror reads it, and
        // the next batch expects 5.
        #expect(machine.appended("a1", .refused(Self.row(5))) == [.fetch(answerID: "a1", after: 3)])
        #expect(machine.batchReady("a1") == [.append(answerID: "a1", expecting: 5, delay: .zero)])
        // The next batch commits while that fetch is still reading: the fetch runs once more, each
        // time from where the mirror stands.
        #expect(machine.appended("a1", .committed(through: 6, ending: false)) == [])
        #expect(machine.fetched("a1", Self.row(5)) == [.fetch(answerID: "a1", after: 5)])
        #expect(machine.fetched("a1", Self.row(6)) == [])
        #expect(machine.batchReady("a1") == [.append(answerID: "a1", expecting: 6, delay: .zero)])
    }

    @Test func anAppendRefusedBecauseTheAnswerEndedElsewhereStopsTheWriterAndTheEngine() {
        var machine = Self.machine()
        machine.started("a1")
        #expect(
            machine.appended("a1", .refused(Self.row(2, ended: true))) == [
                .stopEngine("a1"), .fetch(answerID: "a1", after: 0),
            ])
        #expect(machine.batchReady("a1") == [])
        var gone = Self.machine()
        gone.started("a2")
        #expect(gone.appended("a2", .refused(nil)) == [.stopEngine("a2")])
        #expect(gone.batchReady("a2") == [])
        #expect(gone.storeFailed(.append("a2")) == [])
    }

    // MARK: A database that comes back

    @Test func failedAppendsBackOffByTheSharedRetryRuleAndStartAgainAfterASuccess() {
        var machine = Self.machine()
        machine.started("a1")
        var delays: [Duration] = []
        for _ in 1...7 {
            for case .append(_, let expecting, let delay) in machine.storeFailed(.append("a1")) {
                #expect(expecting == 0)
                delays.append(delay)
            }
        }
        // Ceilings 50, 100, 200, 400, 800 ms, then 1 s: each wait is between half its ceiling and it.
        let ceilings: [Duration] = [50, 100, 200, 400, 800, 1000, 1000].map { .milliseconds($0) }
        #expect(delays.count == 7)
        for (delay, ceiling) in zip(delays, ceilings) { #expect(delay >= ceiling / 2 && delay <= ceiling) }
        // The database is back: the append commits, and the next failure waits the shortest again.
        #expect(machine.appended("a1", .committed(through: 2, ending: false)) == [])
        guard case .append(_, 2, let delay) = machine.storeFailed(.append("a1")).first else {
            Issue.record("the append after recovery is not tried again expecting 2")
            return
        }
        #expect(delay <= .milliseconds(50))
    }

    @Test func aFailedFetchIsReadAgainAtTheNextHeartbeatEvenForAnOwnedAnswer() {
        var machine = Self.machine()
        machine.started("a1")
        _ = machine.appended("a1", .committed(through: 2, ending: false))
        // An owned answer's mirror fills as it appends: a heartbeat does not fetch it...
        #expect(!machine.heartbeat(unread: []).contains(.fetch(answerID: "a1", after: 2)))
        // ...unless its last fetch failed (its final append may have committed unseen).
        #expect(machine.notified("a1", sequence: 3) == [.fetch(answerID: "a1", after: 2)])
        #expect(machine.storeFailed(.fetch("a1")) == [])
        #expect(machine.heartbeat(unread: []).first == .fetch(answerID: "a1", after: 2))
        #expect(machine.fetched("a1", Self.row(3, ended: true)) == [.stopEngine("a1")])
        #expect(!machine.heartbeat(unread: []).contains(where: { if case .fetch = $0 { true } else { false } }))
    }

    // MARK: Eviction and shutdown

    @Test func aMirrorNoReaderAskedForInFifteenHeartbeatsIsEvicted() {
        var machine = Self.machine()
        #expect(machine.loaded("r1", Self.row(4, ended: true)) == [])
        for _ in 1...14 { #expect(!machine.heartbeat(unread: ["r1"]).contains(.evict("r1"))) }
        let followed = machine.followed("r1")  // a reader asks: the count starts again
        #expect(followed)
        for _ in 1...14 { #expect(!machine.heartbeat(unread: ["r1"]).contains(.evict("r1"))) }
        // A reader still waits on it: it stays.
        #expect(!machine.heartbeat(unread: []).contains(.evict("r1")))
        #expect(machine.heartbeat(unread: ["r1"]).contains(.evict("r1")))
        let stillMirrored = machine.followed("r1")
        #expect(!stillMirrored)
    }

    @Test func anOwnedMirrorIsNeverEvicted() {
        var machine = Self.machine()
        machine.started("a1")
        #expect((1...20).allSatisfy { _ in !machine.heartbeat(unread: ["a1"]).contains(.evict("a1")) })
    }

    @Test func shuttingDownStopsAndInterruptsEveryOwnedAnswerOnce() {
        var machine = Self.mirroring("r1", through: 1)
        machine.started("a2")
        machine.started("a1")
        #expect(machine.shutDown() == [.stopEngine("a1"), .stopEngine("a2"), .interrupt("a1"), .interrupt("a2")])
        #expect(machine.shutDown() == [])
        #expect(machine.heartbeat(unread: []) == [])
        #expect(machine.notified("r1", sequence: 9) == [])
        #expect(machine.batchReady("a1") == [])
    }
}
