import NIOCore
import Testing

@testable import CadenceServer

/// The pure rules behind the keep-alive idle and request body timeouts, and what counts against
/// `--max-connections`: ``RequestHeadDeadline`` and ``ConnectionLedger``, event → action.
@Suite("Connection timeout rules")
struct ConnectionTimeoutRulesTests {
    /// A connection whose first request was answered: it rests, with the idle timer running.
    static func idleConnection() -> RequestHeadDeadline {
        var deadline = RequestGuardRulesTests.openedConnection()
        _ = deadline.headReceived()
        _ = deadline.requestEnded()
        _ = deadline.responseEnded()
        return deadline
    }

    @Test("an idle keep-alive connection is closed when the idle timer passes, and the next byte times a head instead")
    func idleTimeout() {
        var deadline = Self.idleConnection()
        #expect(deadline.timerFired(.body) == .none)
        #expect(deadline.timerFired(.idle) == .close(.idle, answering: false))

        var resumed = Self.idleConnection()
        #expect(resumed.bytesRead() == .startTimer(.head))
        #expect(resumed.timerFired(.idle) == .none)  // a late idle timer: the head timer applies now
    }

    @Test("a body that does not arrive in time is answered 408, unless its response began")
    func bodyTimeout() {
        var silent = RequestGuardRulesTests.openedConnection()
        #expect(silent.headReceived() == .takeSlot)
        #expect(silent.timerFired(.body) == .close(.body, answering: true))
        // Closed by its body timer, the connection still holds its place until it is gone.
        #expect(silent.finished() == .releaseSlot(thenStart: nil))
        #expect(silent.finished() == .none)

        var answering = RequestGuardRulesTests.openedConnection()
        _ = answering.headReceived()
        #expect(answering.responseBegan() == .none)
        #expect(answering.timerFired(.body) == .close(.body, answering: false))
    }

    @Test("a complete body stops the body timer; the response is not timed")
    func completeBody() {
        var deadline = RequestGuardRulesTests.openedConnection()
        _ = deadline.headReceived()
        #expect(deadline.requestEnded() == .cancelTimer)
        #expect(deadline.timerFired(.body) == .none)
        #expect(deadline.timerFired(.idle) == .none)
        #expect(deadline.responseBegan() == .none)
        #expect(deadline.responseEnded() == .releaseSlot(thenStart: .idle))
    }

    @Test("a pipelined body that stalls is closed without a 408: an earlier response comes first on the wire")
    func pipelinedBodyTimeout() {
        var deadline = RequestGuardRulesTests.openedConnection()
        _ = deadline.headReceived()
        _ = deadline.requestEnded()
        #expect(deadline.headReceived() == .startTimer(.body))
        #expect(deadline.timerFired(.body) == .close(.body, answering: false))
    }

    @Test("a WebSocket holds its place until it closes, untimed")
    func webSocket() {
        var deadline = RequestGuardRulesTests.openedConnection()
        #expect(deadline.headReceived() == .takeSlot)
        _ = deadline.requestEnded()
        #expect(deadline.upgraded() == .cancelTimer)
        #expect(deadline.responseEnded() == .none)
        #expect(deadline.bytesRead() == .none)
        for timer in [RequestHeadDeadline.Timer.head, .body, .idle] { #expect(deadline.timerFired(timer) == .none) }
        #expect(deadline.finished() == .releaseSlot(thenStart: nil))
    }

    @Test("a request the server has no place for ends the connection's timing, holding nothing")
    func slotDenied() {
        var deadline = RequestGuardRulesTests.openedConnection()
        #expect(deadline.headReceived() == .takeSlot)
        #expect(deadline.slotDenied() == .cancelTimer)
        #expect(deadline.finished() == .none)
        #expect(deadline.timerFired(.body) == .none)
    }

    @Test("only busy connections count against the limit; each address has its own open count")
    func ledger() {
        let ledger = ConnectionLedger(maxBusy: 2, maxPerClient: 2)
        #expect(ledger.open(from: "10.0.0.1"))
        #expect(ledger.open(from: "10.0.0.1"))
        #expect(!ledger.open(from: "10.0.0.1"))
        #expect(ledger.open(from: "10.0.0.2"))
        #expect(ledger.open(from: nil))
        #expect(ledger.busyConnections == 0)  // open is not busy
        #expect(ledger.takeBusySlot())
        #expect(ledger.takeBusySlot())
        #expect(!ledger.takeBusySlot())
        ledger.releaseBusySlot()
        #expect(ledger.takeBusySlot())
        ledger.close(from: "10.0.0.1")
        #expect(ledger.openConnections(from: "10.0.0.1") == 1)
        #expect(ledger.open(from: "10.0.0.1"))

        let unlimited = ConnectionLedger(maxBusy: nil, maxPerClient: nil)
        for _ in 0..<1_000 { #expect(unlimited.open(from: "10.0.0.1") && unlimited.takeBusySlot()) }
    }

    @Test(
        "the guard's timeouts never wrap: past about 292 years they saturate",
        arguments: [
            (Duration.seconds(10), TimeAmount.seconds(10)),
            (.milliseconds(1500), .milliseconds(1500)),
            (.seconds(10_000_000_000), .nanoseconds(.max)),
            (.seconds(Int64.max), .nanoseconds(.max)),
            (.seconds(9_223_372_036) + .nanoseconds(999_999_999), .nanoseconds(.max)),
        ])
    func timeoutsSaturate(duration: Duration, expected: TimeAmount) throws {
        var configuration = ServerConfiguration()
        configuration.requestReadTimeout = duration
        let timeouts = try RequestGuard(configuration: configuration, metrics: ServerMetrics()).timeouts
        #expect(timeouts == RequestHeadTimer.Timeouts(head: expected, body: expected, idle: expected))
    }
}
