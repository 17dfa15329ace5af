import CadencePacing

/// Drives a pacer on a virtual clock, one frame every `interval`, and records every frame.
struct PacerHarness {
    struct Frame: Equatable {
        var milliseconds: Double
        var visible: Int
        var changed: Bool
    }

    var pacer: DisplayPacer
    var interval: Double
    private(set) var frames: [Frame] = []
    private(set) var now = 0.0

    init(_ pacer: DisplayPacer = DisplayPacer(), hz: Double = 60) {
        self.pacer = pacer
        self.interval = 1000 / hz
    }

    /// Runs one frame at the current time and moves the clock on by one interval.
    @discardableResult
    mutating func frame() -> DisplayPacer.Update {
        let update = pacer.advance(to: .milliseconds(now))
        frames.append(Frame(milliseconds: now, visible: update.visibleScalarCount, changed: update.changed))
        now += interval
        return update
    }

    /// Runs frames until the clock reaches `milliseconds` (exclusive).
    mutating func run(until milliseconds: Double) {
        while now < milliseconds - 1e-9 { frame() }
    }

    /// Runs frames until the whole text is visible and the stream finished (or a limit).
    mutating func runToCompletion(limit: Double = 60_000) {
        while !pacer.isComplete && now < limit { frame() }
    }

    var visibleText: String { String(pacer.visibleText) }

    /// The time at which the visible scalar count first reached each value in `counts`.
    func firstTime(reaching count: Int) -> Double? {
        frames.first { $0.visible >= count }?.milliseconds
    }
}

extension String {
    var scalarCount: Int { unicodeScalars.count }
}

extension Duration {
    /// Milliseconds as a `Double`.
    var inMilliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
