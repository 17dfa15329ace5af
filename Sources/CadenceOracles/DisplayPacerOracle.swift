import CadenceCore
import CadencePacing

/// The display pacer never shows more than arrived, never goes backwards, shows a prefix of the
/// text, and after the stream ends shows everything within its end drain.
///
/// Time is the oracle's own: frames are advanced by durations it chooses, never by a real clock.
/// The options byte chooses the pacing mode (low two bits), whether chunks carry arrival times,
/// whether they are given as the whole text so far (`DisplayPacer/advance(receivedText:isFinished:to:)`)
/// and whether the user stops the animation half-way. The split seed cuts the text into network
/// chunks (between Unicode scalars) and chooses the frames and time steps between them.
public enum DisplayPacerOracle: FuzzOracle {
    public static let target = "pacer"

    /// Frame intervals and stalls, in milliseconds.
    static let steps = [0, 1, 4, 8, 16, 17, 33, 100, 260, 1000, 3100]

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        let mode = DisplayPacer.Mode.allCases[Int(input.options & 3) % DisplayPacer.Mode.allCases.count]
        let stampsArrivals = input.options & 4 != 0
        let givesWholeText = input.options & 8 != 0
        let stopsHalfWay = input.options & 16 != 0
        var run = PacerRun(pacer: DisplayPacer(mode: mode))
        var random = SplitMix64(seed: UInt64(input.splitSeed) << 8 | UInt64(input.options))
        let chunks = input.chunks(of: input.text.unicodeScalars)
        for (index, chunk) in chunks.enumerated() {
            run.arrived += String(Substring(chunk))
            run.arrivedScalars += chunk.count
            if givesWholeText {
                try run.check(run.pacer.advance(receivedText: run.arrived, isFinished: false, to: run.now))
            } else {
                run.pacer.append(Substring(chunk), at: stampsArrivals ? run.now : nil)
            }
            if stopsHalfWay && index == chunks.count / 2 {
                run.pacer.stop()
                try OracleViolation.expect(
                    run.pacer.visibleScalarCount, equals: run.arrivedScalars, "stop() hides text")
                run.visible = run.pacer.visibleScalarCount
            }
            for _ in 0..<Int(random.next() % 4) {
                run.now += .milliseconds(steps[Int(random.next() % UInt64(steps.count))])
                try run.check(run.pacer.advance(to: run.now))
            }
        }
        run.pacer.finish()
        // Frames every 16 ms, the last one exactly when the end drain is over.
        let deadline = run.now + run.pacer.configuration.endDrain
        while true {
            try run.check(run.pacer.advance(to: run.now))
            if run.now >= deadline { break }
            run.now = min(run.now + .milliseconds(16), deadline)
        }
        guard run.pacer.isComplete, run.pacer.visibleText == run.arrived else {
            throw OracleViolation(
                "the text is not all shown within the end drain",
                "\(run.pacer.visibleScalarCount) of \(run.arrivedScalars) scalars visible")
        }
    }
}

/// One pacer under test, the text it was given and the oracle's clock.
struct PacerRun {
    var pacer: DisplayPacer
    var arrived = ""
    /// `arrived.unicodeScalars.count`, kept as it grows.
    var arrivedScalars = 0
    var now = Duration.zero
    var visible = 0

    /// Checks one frame's update against everything known so far.
    mutating func check(_ update: DisplayPacer.Update) throws(OracleViolation) {
        let count = pacer.visibleScalarCount
        try OracleViolation.expect(update.visibleScalarCount, equals: count, "the update and the pacer disagree")
        try OracleViolation.expect(update.changed, equals: count != visible, "`changed` is wrong")
        guard count >= visible else { throw OracleViolation("the visible text went back from \(visible) to \(count)") }
        guard count <= arrivedScalars else {
            throw OracleViolation("\(count) scalars visible but only \(arrivedScalars) arrived")
        }
        guard update.changed else { return }
        let shown = pacer.visibleText.unicodeScalars
        guard shown.count == count, arrived.unicodeScalars.starts(with: shown) else {
            throw OracleViolation("the visible text is not a prefix of the text that arrived")
        }
        visible = count
    }
}
