import CadencePacing
import Testing

@Suite("DisplayPacer (adaptive)")
struct DisplayPacerTests {
    @Test("the documented example behaves as documented")
    func documentedExample() {
        var pacer = DisplayPacer()
        pacer.append("Hello, wor")
        let update = pacer.advance(to: .milliseconds(16))
        #expect(update.changed && pacer.visibleText == "Hello, ")
        pacer.append("ld!")
        pacer.finish()
        _ = pacer.advance(to: .milliseconds(33))
        #expect(pacer.visibleText == "Hello, world!" && pacer.isComplete)
    }

    @Test("the first word appears on the frame it completes")
    func firstWordAtOnce() {
        var harness = PacerHarness()
        harness.pacer.append("Hello", at: .zero)
        harness.frame()
        #expect(harness.pacer.visibleScalarCount == 0)
        harness.pacer.append(" there", at: .milliseconds(10))
        let update = harness.frame()
        #expect(update.changed)
        #expect(harness.visibleText == "Hello ")
    }

    @Test("bursty chunks are spread over the gaps instead of shown in one jump")
    func pacing() {
        var harness = PacerHarness()
        let chunk = "one two three four five six "  // 28 scalars every 140 ms: 200 scalars/s
        for index in 0..<20 {
            harness.pacer.append(chunk, at: .milliseconds(Double(index) * 140))
            harness.run(until: Double(index + 1) * 140)
        }
        // After the first second, every 140 ms period shows several updates, none of them
        // a whole chunk.
        let settled = harness.frames.filter { $0.milliseconds >= 1120 }
        var previous = harness.frames[harness.frames.count - settled.count - 1].visible
        var largest = 0
        for frame in settled {
            largest = max(largest, frame.visible - previous)
            previous = frame.visible
        }
        #expect(largest < 28, "largest single-frame reveal: \(largest)")
        #expect(settled.filter(\.changed).count >= 3 * 5)
    }

    @Test("the latency budget shows text that has waited that long, whatever buffer the rate law keeps")
    func latencyBudget() {
        func visibleAt450(budget: Duration?) -> Int {
            var configuration = DisplayPacer.Configuration()
            configuration.minimumLag = .seconds(5)  // a lag that wants a five-second buffer
            configuration.latencyBudget = budget
            var harness = PacerHarness(DisplayPacer(configuration: configuration))
            harness.pacer.append(String(repeating: "word ", count: 100), at: .zero)
            harness.run(until: 420)
            #expect(harness.pacer.visibleScalarCount < 500)  // still buffering before the budget
            harness.run(until: 450)
            return harness.pacer.visibleScalarCount
        }
        #expect(visibleAt450(budget: .milliseconds(430)) == 500)
        #expect(visibleAt450(budget: nil) < 500)
    }

    @Test("a bigger burst is revealed faster: each is spread over the same lag")
    func proportionalCatchUp() {
        func shown(after milliseconds: Double, backlog words: Int) -> Int {
            var harness = PacerHarness()
            harness.pacer.append(String(repeating: "word ", count: words), at: .zero)
            harness.run(until: milliseconds)
            return harness.pacer.visibleScalarCount
        }
        let small = shown(after: 200, backlog: 40)
        let large = shown(after: 200, backlog: 400)
        #expect(large > small * 2, "small backlog: \(small), large backlog: \(large)")
    }

    @Test("at most one update per frame, none when nothing changes, at most 60 per second", arguments: [60.0, 120.0])
    func updateBudget(hz: Double) {
        var harness = PacerHarness(hz: hz)
        for index in 0..<100 {  // a fast provider: 2,000 scalars per second in 10 ms chunks
            harness.pacer.append("fast provider text. ", at: .milliseconds(Double(index) * 10))
            harness.run(until: Double(index + 1) * 10)
        }
        let changes = harness.frames.filter(\.changed)
        #expect(changes.count <= 60)
        #expect(changes.count >= 30, "a fast stream should update at least every other 60 Hz frame")
        for (previous, frame) in zip(harness.frames, harness.frames.dropFirst()) {
            #expect(frame.changed == (frame.visible != previous.visible))
        }
        // Nothing new and everything shown: no more updates.
        var idle = PacerHarness(hz: hz)
        idle.pacer.append("done ", at: .zero)
        idle.run(until: 500)
        #expect(idle.frames.filter(\.changed).count == 1)
    }

    /// A word that ends in punctuation appears after a short silence; a partial word waits for its
    /// end, and appears only after a long one.
    @Test(
        "a held word appears after a silence: a short one if it ends in punctuation, a long one if it is partial",
        arguments: [("It is done.", "It is ", 200.0, 300.0), ("An unfini", "An ", 2900.0, 3100.0)])
    func heldWordRelease(text: String, visibleWhileHeld: String, stillHeldAt: Double, shownBy: Double) {
        var harness = PacerHarness()
        harness.pacer.append(text, at: .zero)
        harness.run(until: stillHeldAt)
        #expect(harness.visibleText == visibleWhileHeld)
        harness.run(until: shownBy)
        #expect(harness.visibleText == text)
    }

    @Test("a held partial word stays whole through a stall, on a token stream and behind a bursty proxy")
    func stallKeepsWordsWhole() {
        // A token stream (a chunk every 20 ms) that stalls mid-word: the word waits for its end.
        var tokens = PacerHarness()
        for index in 0..<10 {
            tokens.pacer.append(index == 9 ? "wo" : "ab ", at: .milliseconds(Double(index) * 20))
            tokens.run(until: Double(index + 1) * 20)
        }
        tokens.run(until: 2500)
        #expect(tokens.visibleText == String(repeating: "ab ", count: 9))
        tokens.pacer.append("rd ", at: .milliseconds(2500))
        tokens.run(until: 2700)
        #expect(tokens.visibleText.hasSuffix("ab word "))

        // A bursty proxy (a chunk every 300 ms) that stalls mid-word.
        var bursty = PacerHarness()
        for index in 0..<6 {
            bursty.pacer.append(index == 5 ? "wo" : "ab cd ef ", at: .milliseconds(Double(index) * 300))
            bursty.run(until: Double(index + 1) * 300)
        }
        bursty.run(until: 1500 + 1000)
        #expect(!bursty.visibleText.hasSuffix("wo"))
        #expect(bursty.visibleText.hasSuffix("ab cd ef "))
    }

    @Test("while a complete unit is waiting the screen never freezes for 50 ms or more", arguments: [60.0, 120.0])
    func noStallWhileReady(hz: Double) {
        // Bursty arrivals (a chunk every 600 ms) make the pacer keep a buffer and ration it;
        // the rate law alone would let the last units of each chunk trickle out slowly.
        var pacer = DisplayPacer()
        var lastChange: Double?
        var longestWaitWithUnitReady = 0.0
        var frame = 0
        while Double(frame) * 1000 / hz < 6000 {
            let now = Double(frame) * 1000 / hz
            if frame % Int(600 * hz / 1000) == 0 {
                pacer.append(String(repeating: "tick tock ", count: 8), at: .milliseconds(now))
            }
            let pendingHasUnit = pacer.text.unicodeScalars.dropFirst(pacer.visibleScalarCount).contains(" ")
            let update = pacer.advance(to: .milliseconds(now))
            if update.changed {
                lastChange = now
            } else if pendingHasUnit, let lastChange {
                longestWaitWithUnitReady = max(longestWaitWithUnitReady, now - lastChange)
            }
            frame += 1
        }
        #expect(longestWaitWithUnitReady < 50 - 1e-9)
    }

    @Test("at the end the rest appears within the end drain", arguments: [60.0, 120.0])
    func flushAtEnd(hz: Double) throws {
        var harness = PacerHarness(hz: hz)
        harness.pacer.append("First words arrive. ", at: .zero)
        harness.run(until: 300)
        harness.pacer.append(String(repeating: "then a large final chunk ", count: 40), at: .milliseconds(300))
        harness.pacer.finish()
        harness.runToCompletion()
        let complete = harness.firstTime(reaching: harness.pacer.receivedScalarCount)
        #expect(try #require(complete) <= 300 + 100 + 1000 / hz)
        let drainFrames = harness.frames.filter { $0.milliseconds >= 300 && $0.changed }
        #expect(drainFrames.count >= 2, "the remainder drains over several frames, not one jump")
    }

    @Test("stop() shows everything at once")
    func stop() {
        var harness = PacerHarness()
        harness.pacer.append(String(repeating: "long answer ", count: 100) + "and a partial wo", at: .zero)
        harness.run(until: 50)
        #expect(harness.pacer.visibleScalarCount < harness.pacer.receivedScalarCount)
        harness.pacer.stop()
        #expect(harness.pacer.visibleText == harness.pacer.text)
        harness.pacer.append("rd", at: .milliseconds(60))
        let update = harness.frame()
        #expect(update.changed && harness.pacer.visibleText.hasSuffix("partial word"))
    }

    @Test("a finished answer is shown fully, with no replay", arguments: DisplayPacer.Mode.allCases)
    func noReplay(mode: DisplayPacer.Mode) {
        let stored = "A stored answer with `code` and [1] citations."
        var reopened = PacerHarness(DisplayPacer(completedText: stored, mode: mode))
        #expect(reopened.pacer.visibleText == stored)
        #expect(reopened.pacer.isComplete)
        #expect(!reopened.frame().changed)

        // A whole reply that arrives and ends before the first frame (a cached answer).
        var cached = PacerHarness(DisplayPacer(mode: mode))
        cached.pacer.append(stored, at: .zero)
        cached.pacer.finish()
        #expect(cached.frame().visibleScalarCount == stored.scalarCount)
    }

    @Test("the received-text API reads only the new suffix and agrees with append")
    func receivedTextAPI() {
        var byText = DisplayPacer()
        var byChunk = DisplayPacer()
        var received = ""
        for (index, chunk) in ["Hel", "lo wo", "rld, ", "e", "\u{301}t\u{E9} ", "end"].enumerated() {
            received += chunk
            let time = Duration.milliseconds(index * 16)
            byChunk.append(chunk)
            let update = byText.advance(receivedText: received, isFinished: index == 5, to: time)
            if index == 5 { byChunk.finish() }
            #expect(update == byChunk.advance(to: time))
        }
        #expect(byText.text == received)
    }

    @Test("pacers are independent values")
    func sideBySide() {
        var pacers = [DisplayPacer(), DisplayPacer(mode: .word), DisplayPacer(mode: .character)]
        for index in pacers.indices { pacers[index].append("answer \(index) is streaming ", at: .zero) }
        var copy = pacers[0]
        copy.stop()
        for frame in 0..<30 {
            for index in pacers.indices { pacers[index].advance(to: .milliseconds(frame * 16)) }
        }
        #expect(pacers[0].visibleText == "answer 0 is streaming ")
        #expect(pacers[1].text == "answer 1 is streaming ")
        #expect(copy.visibleText == "answer 0 is streaming ")
        #expect(pacers.allSatisfy { !$0.isFinished })
    }

    @Test("an instant of any clock can drive the pacer")
    func instantAPI() {
        var pacer = DisplayPacer(mode: .instant)
        let origin = ContinuousClock.now
        pacer.append("now ")
        let update = pacer.advance(to: origin.advanced(by: .milliseconds(16)), since: origin)
        #expect(update.visibleScalarCount == 4)
    }
}

@Suite("DisplayPacer (adaptive): spreading bursts over the lag")
struct BurstSpreadingTests {
    /// A bursty proxy: `chunk` every `period` ms, for `count` chunks; returns the harness after
    /// `silence` ms more of network silence.
    private func bursty(
        _ chunk: String, every period: Double, count: Int, silence: Double, hz: Double = 60
    )
        -> PacerHarness
    {
        var harness = PacerHarness(hz: hz)
        for index in 0..<count {
            harness.pacer.append(chunk, at: .milliseconds(Double(index) * period))
            harness.run(until: Double(index + 1) * period)
        }
        harness.run(until: Double(count) * period + silence)
        return harness
    }

    @Test("every chunk of whole words is on screen by its arrival plus the latency budget", arguments: [60.0, 120.0])
    func dueTimes(hz: Double) throws {
        let chunk = "spread this burst out "  // whole words: nothing waits for a later chunk
        let harness = bursty(chunk, every: 250, count: 12, silence: 1000, hz: hz)
        let budget = try #require(DisplayPacer.Configuration.standard.latencyBudget).inMilliseconds
        for index in 0..<12 {
            let end = (index + 1) * chunk.scalarCount
            let shown = try #require(harness.firstTime(reaching: end))
            #expect(shown <= Double(index) * 250 + budget + 1000 / hz, "chunk \(index) shown at \(shown) ms")
        }
    }

    @Test("a burst is spread over the lag: no frame shows most of it", arguments: [60.0, 120.0])
    func noJump(hz: Double) {
        let chunk = String(repeating: "word ", count: 24)  // 120 scalars every 400 ms
        let harness = bursty(chunk, every: 400, count: 10, silence: 600, hz: hz)
        var largest = 0
        for (previous, frame) in zip(harness.frames, harness.frames.dropFirst()) where frame.milliseconds > 1200 {
            largest = max(largest, frame.visible - previous.visible)
        }
        #expect(largest <= chunk.scalarCount / 4, "largest single-frame reveal: \(largest)")
    }

    @Test("what is buffered lasts into the gap after the last burst, up to the budget", arguments: [60.0, 120.0])
    func bufferBridgesTheGap(hz: Double) throws {
        let chunk = String(repeating: "word ", count: 24)
        let harness = bursty(chunk, every: 400, count: 10, silence: 1500, hz: hz)
        let lastArrival = 9 * 400.0
        let lastChange = try #require(harness.frames.last { $0.changed }).milliseconds
        #expect(harness.visibleText == harness.pacer.text)
        // The screen still changes most of the budget after the network went quiet, and not later.
        #expect(lastChange >= lastArrival + 300, "last change \(lastChange - lastArrival) ms after the last chunk")
        #expect(lastChange <= lastArrival + 430 + 1000 / hz)
    }

    @Test("a token stream keeps a small lag: every word shortly after its end arrived")
    func tokenStreamLag() throws {
        var harness = PacerHarness()
        var arrivedEnds: [(end: Int, at: Double)] = []
        var received = 0
        for index in 0..<200 {
            let token = index % 3 == 2 ? "ab " : "cd"  // "cdcdab " every 3 tokens, 20 ms apart
            let time = Double(index) * 20
            harness.pacer.append(token, at: .milliseconds(time))
            received += token.scalarCount
            if token.hasSuffix(" ") { arrivedEnds.append((received, time)) }
            harness.run(until: time + 20)
        }
        for (end, time) in arrivedEnds.dropFirst(5) {
            let shown = try #require(harness.firstTime(reaching: end))
            #expect(shown - time <= 120, "word ending at \(end) shown \(shown - time) ms after its end arrived")
        }
    }
}
