import CadenceUI
import Testing

@Suite struct ScrollPinStateTests {
    typealias Action = ScrollPinState.Action

    func ms(_ value: Int) -> Duration { .milliseconds(value) }

    @Test func pinnedByDefaultWithNoPill() {
        let pin = ScrollPinState()
        #expect(pin.isPinned)
        #expect(!pin.isPillVisible)
        #expect(pin.newContentCount == 0)
        #expect(pin.nextDeadline == nil)
    }

    @Test func firstGrowthScrollsAtOnce() {
        var pin = ScrollPinState()
        #expect(pin.contentGrew(by: 1, now: ms(500)) == [.scrollToBottom])
        #expect(pin.nextDeadline == nil)
    }

    @Test func growthInsideTheIntervalIsFoldedIntoOneScrollAtItsEnd() {
        var pin = ScrollPinState()
        #expect(pin.contentGrew(now: ms(0)) == [.scrollToBottom])
        #expect(pin.contentGrew(now: ms(16)) == [])
        #expect(pin.contentGrew(now: ms(33)) == [])
        #expect(pin.nextDeadline == ms(100))
        #expect(pin.tick(now: ms(50)) == [])
        #expect(pin.tick(now: ms(100)) == [.scrollToBottom])
        #expect(pin.tick(now: ms(116)) == [])
        #expect(pin.nextDeadline == nil)
    }

    @Test func tickWithoutGrowthDoesNothing() {
        var pin = ScrollPinState()
        _ = pin.contentGrew(now: ms(0))
        #expect(pin.tick(now: ms(1000)) == [])
    }

    /// Growth on every 16 ms frame for two seconds: about one scroll per 100 ms, never one per frame.
    @Test func steadyStreamingScrollsAboutEveryHundredMilliseconds() {
        var pin = ScrollPinState()
        var scrolls: [Int] = []
        for frame in 0..<125 {
            let now = frame * 16
            var actions = pin.tick(now: ms(now))
            actions += pin.contentGrew(by: 3, now: ms(now))
            if actions.contains(.scrollToBottom) { scrolls.append(now) }
        }
        #expect(scrolls.count >= 17 && scrolls.count <= 21)
        for (earlier, later) in zip(scrolls, scrolls.dropFirst()) {
            #expect(later - earlier >= 100)
            #expect(later - earlier <= 116)
        }
    }

    @Test func dragUnpinsAndGrowthCountsForThePill() {
        var pin = ScrollPinState()
        _ = pin.contentGrew(now: ms(0))
        #expect(pin.userDragged() == [])
        #expect(!pin.isPinned)
        #expect(!pin.isPillVisible)
        #expect(pin.contentGrew(by: 2, now: ms(10)) == [.showPill(2)])
        #expect(pin.contentGrew(by: 1, now: ms(20)) == [.showPill(3)])
        #expect(pin.isPillVisible)
        #expect(pin.tick(now: ms(500)) == [])
        #expect(pin.nextDeadline == nil)
    }

    @Test func dragDropsAPendingScroll() {
        var pin = ScrollPinState()
        _ = pin.contentGrew(now: ms(0))
        _ = pin.contentGrew(now: ms(20))
        _ = pin.userDragged()
        #expect(pin.tick(now: ms(200)) == [])
    }

    @Test(arguments: [(0.0, true), (30, true), (50, true), (50.5, false), (400, false)])
    func scrollingNearTheBottomPinsAgain(distance: Double, pins: Bool) {
        var pin = ScrollPinState()
        _ = pin.userDragged()
        _ = pin.contentGrew(by: 4, now: ms(0))
        let actions = pin.scrolled(distanceFromBottom: distance)
        #expect(pin.isPinned == pins)
        #expect(actions == (pins ? [.hidePill] : []))
        #expect(pin.newContentCount == (pins ? 0 : 4))
    }

    @Test func repinningWithoutAPillDoesNotHideOne() {
        var pin = ScrollPinState()
        _ = pin.userDragged()
        #expect(pin.scrolled(distanceFromBottom: 10) == [])
        #expect(pin.isPinned)
    }

    @Test func scrollingAwayWhilePinnedDoesNotUnpin() {
        var pin = ScrollPinState()
        #expect(pin.scrolled(distanceFromBottom: 900) == [])
        #expect(pin.isPinned)
    }

    @Test func pillTapScrollsAndPins() {
        var pin = ScrollPinState()
        _ = pin.userDragged()
        _ = pin.contentGrew(by: 5, now: ms(0))
        #expect(pin.pillTapped(now: ms(300)) == [.hidePill, .scrollToBottom])
        #expect(pin.isPinned)
        #expect(pin.newContentCount == 0)
        // The tap's scroll counts for the interval.
        #expect(pin.contentGrew(now: ms(350)) == [])
        #expect(pin.tick(now: ms(400)) == [.scrollToBottom])
    }

    @Test func sendingAlwaysPinsAndScrolls() {
        var pin = ScrollPinState()
        _ = pin.userDragged()
        #expect(pin.messageSent(now: ms(0)) == [.scrollToBottom])
        #expect(pin.isPinned)
        _ = pin.userDragged()
        _ = pin.contentGrew(now: ms(10))
        #expect(pin.messageSent(now: ms(20)) == [.hidePill, .scrollToBottom])
    }

    @Test func zeroGrowthScrollsWhenPinnedButAddsNothingToThePill() {
        var pin = ScrollPinState()
        #expect(pin.contentGrew(by: 0, now: ms(0)) == [.scrollToBottom])
        _ = pin.userDragged()
        #expect(pin.contentGrew(by: 0, now: ms(5)) == [])
        #expect(!pin.isPillVisible)
    }

    @Test func customConfiguration() {
        var pin = ScrollPinState(configuration: .init(repinDistance: 10, scrollInterval: .milliseconds(40)))
        _ = pin.contentGrew(now: ms(0))
        _ = pin.contentGrew(now: ms(10))
        #expect(pin.nextDeadline == ms(40))
        _ = pin.userDragged()
        #expect(pin.scrolled(distanceFromBottom: 20) == [])
        #expect(!pin.isPinned)
    }
}
