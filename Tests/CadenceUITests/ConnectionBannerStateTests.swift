import CadenceCore
import CadenceUI
import Testing

@Suite struct ConnectionBannerStateTests {
    typealias Banner = ConnectionBannerState.Banner

    static let terminals: [AnswerUpdate] = [
        .completed(AnswerCompletion(reason: .completed, text: "done")),
        .failed(AnswerFailure(.connection, message: "gave up")),
        .cancelled(partialText: "par"),
    ]

    @Test func noBannerAtFirst() {
        let state = ConnectionBannerState()
        #expect(state.banner == nil)
        #expect(state.nextDeadline == nil)
    }

    @Test func reconnectingShowsTheAttemptAndWhenItStarts() {
        var state = ConnectionBannerState()
        #expect(state.apply(.reconnecting(attempt: 1, after: .milliseconds(500)), now: .seconds(10)) == true)
        #expect(state.banner == .reconnecting(attempt: 1, startsAt: .milliseconds(10_500)))
        #expect(state.nextDeadline == nil)
        #expect(state.apply(.reconnecting(attempt: 2, after: .seconds(1)), now: .seconds(11)) == true)
        #expect(state.banner == .reconnecting(attempt: 2, startsAt: .seconds(12)))
        // A reconnecting banner stays however long the attempt takes.
        #expect(state.tick(now: .seconds(60)) == false)
        #expect(state.banner == .reconnecting(attempt: 2, startsAt: .seconds(12)))
    }

    @Test func reconnectedDismissesItselfAfterTwoSeconds() {
        var state = ConnectionBannerState()
        state.apply(.reconnecting(attempt: 1, after: .zero), now: .seconds(1))
        #expect(state.apply(.reconnected, now: .seconds(3)) == true)
        #expect(state.banner == .reconnected)
        #expect(state.nextDeadline == .seconds(5))
        #expect(state.tick(now: .milliseconds(4_999)) == false)
        #expect(state.banner == .reconnected)
        #expect(state.tick(now: .seconds(5)) == true)
        #expect(state.banner == nil)
        #expect(state.nextDeadline == nil)
        #expect(state.tick(now: .seconds(6)) == false)
    }

    @Test func textKeepsTheBannerAndLateUpdatesStillDismiss() {
        var state = ConnectionBannerState()
        state.apply(.reconnected, now: .zero)
        #expect(state.apply(.textAppended("more"), now: .seconds(1)) == false)
        #expect(state.banner == .reconnected)
        // The first update after the deadline dismisses, even without a tick.
        #expect(state.apply(.textAppended("later"), now: .seconds(3)) == true)
        #expect(state.banner == nil)
    }

    @Test func anotherBreakReplacesReconnected() {
        var state = ConnectionBannerState()
        state.apply(.reconnected, now: .zero)
        state.apply(.reconnecting(attempt: 1, after: .seconds(4)), now: .seconds(1))
        #expect(state.nextDeadline == nil)
        #expect(state.tick(now: .seconds(3)) == false)
        #expect(state.banner == .reconnecting(attempt: 1, startsAt: .seconds(5)))
    }

    @Test(arguments: terminals)
    func terminalUpdateRemovesReconnecting(terminal: AnswerUpdate) {
        var state = ConnectionBannerState()
        state.apply(.reconnecting(attempt: 3, after: .seconds(2)), now: .zero)
        #expect(state.apply(terminal, now: .seconds(1)) == true)
        #expect(state.banner == nil)
    }

    @Test(arguments: terminals)
    func terminalUpdateLetsReconnectedFinishItsTime(terminal: AnswerUpdate) {
        var state = ConnectionBannerState()
        state.apply(.reconnected, now: .zero)
        #expect(state.apply(terminal, now: .seconds(1)) == false)
        #expect(state.banner == .reconnected)
        #expect(state.tick(now: .seconds(2)) == true)
        #expect(state.banner == nil)
    }

    @Test func customDuration() {
        var state = ConnectionBannerState(configuration: .init(reconnectedDuration: .milliseconds(300)))
        state.apply(.reconnected, now: .seconds(1))
        #expect(state.nextDeadline == .milliseconds(1_300))
    }

    @Test func answerEndedNeedsNoTime() {
        var state = ConnectionBannerState()
        #expect(state.answerEnded() == false)
        state.apply(.reconnecting(attempt: 1, after: .zero), now: .zero)
        #expect(state.answerEnded() == true)
        #expect(state.banner == nil)
        state.apply(.reconnected, now: .zero)
        #expect(state.answerEnded() == false)
        #expect(state.banner == .reconnected)
    }
}
