extension DisplayPacer {
    /// How text is revealed.
    ///
    /// ```swift
    /// var typewriter = DisplayPacer(mode: .character)   // seed 000 timings
    /// var reduceMotion = DisplayPacer(mode: .instant)   // show text as it arrives
    /// ```
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// The default: whole words (whole lines in code) at a steady, adaptive rate.
        case adaptive
        /// Character typewriter (seed 000): 8 ms per character, 5 ms per space,
        /// 50 ms after `,.!?;:`.
        case character
        /// Word by word (seed 002): 40 ms per word, 10 ms per whitespace run. A citation
        /// marker (`[1]`, `[1][2]`) is part of the word it is attached to.
        case word
        /// Everything received is shown on the next frame (still never half a grapheme).
        case instant
    }

    /// Tuning of the adaptive lag and the limits shared by every mode.
    ///
    /// The defaults are what `cadence pace` measures; change them only with the pacing lab
    /// at hand.
    ///
    /// ```swift
    /// var configuration = DisplayPacer.Configuration()
    /// configuration.endDrain = .zero          // flush at once when the stream ends
    /// let pacer = DisplayPacer(configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// Adaptive mode: each chunk is due on screen a lag after it arrived, and the pacer
        /// reveals what it holds at the slowest steady rate that meets those due times, so a
        /// burst is spread over the lag and lasts into the gap after it. The lag is the stream's
        /// usual gap between chunks, its mean plus `lagGapDeviations` mean deviations (as TCP
        /// sizes a retransmission timeout), at least `minimumLag` and at most `latencyBudget`:
        /// the minimum for a token stream, one period for a steady big-chunk provider, the budget
        /// for a bursty proxy. On the pacing lab's held-out traces (seeds 1–20) the 80 ms
        /// minimum lets words that take long to arrive be bridged (steady: 16/20 seeds meet every
        /// target at 60 Hz, 9/20 without it).
        public var minimumLag: Duration = .milliseconds(80)
        public var lagGapDeviations: Double = 4
        /// Adaptive mode: no chunk waits longer than this after it arrived, as far as its unit
        /// allows (a word, code line or cluster still arriving waits for its end); the lag never
        /// exceeds it. 430 ms keeps the lab's latency p95 under its 450 ms bursty target. `nil`
        /// lets the lag follow the gaps without a cap.
        public var latencyBudget: Duration? = .milliseconds(430)
        /// While a complete unit is waiting, the screen never stays unchanged longer than
        /// this (the next frame is judged by the last frame interval).
        public var maximumFreeze: Duration = .milliseconds(45)
        /// At most this many visible updates per second (one per frame at 60 Hz, every
        /// other frame at 120 Hz); `0` or `.infinity` lifts the limit.
        public var maximumUpdatesPerSecond: Double = 60
        /// After the stream ends, whatever is left appears within this time.
        public var endDrain: Duration = .milliseconds(100)
        /// A held trailing word that ends in punctuation (`,.!?;:`, closing brackets or
        /// quotes) is shown after this much network silence.
        public var finishedWordRelease: Duration = .milliseconds(250)
        /// Any held unit (a partial word, code line or grapheme cluster) is shown after this
        /// much network silence, or never if `nil`.
        public var heldUnitRelease: Duration? = .seconds(3)
        /// Off by default (the rule: whole lines in code). When set, a code line still
        /// arriving while the screen has been unchanged this long is shown up to its last
        /// whitespace-delimited token (never mid-token), so slow code lines appear token by
        /// token; the pacing lab then counts those cuts as split code lines (partLine%).
        /// About 30 ms (under the lab's 50 ms stall threshold) keeps long code blocks from
        /// freezing the screen between lines.
        public var codeTokenRelease: Duration? = nil
        /// Runs longer than this many scalars (URLs, minified code) may be cut between
        /// grapheme clusters.
        public var maximumUnitLength: Int = 128

        public init() {}

        /// The configuration `cadence pace` and the UI use.
        public static let standard = Configuration()
    }
}

extension Duration {
    /// Milliseconds as a `Double`, for the rate arithmetic. CadenceCore has the same for the other
    /// modules; this one stays because CadencePacing depends on no other module.
    var milliseconds: Double { self / .milliseconds(1) }
}
