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

    /// Tuning of the adaptive rate law and the limits shared by every mode.
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
        /// Reveal rate assumed before text arrives, in Unicode scalars per second. It is a
        /// prior for the arrival-rate estimate, weighted like `priorWeight` of observation.
        public var baseRate: Double = 300
        /// How much the base rate counts against observed arrivals.
        public var priorWeight: Duration = .milliseconds(250)
        /// Window of the arrival-rate estimate.
        public var rateWindow: Duration = .seconds(1)
        /// The buffer the pacer keeps follows the typical gap between chunks, within these
        /// bounds: small for smooth token streams, larger for bursty proxies.
        public var minimumLag: Duration = .zero
        public var maximumLag: Duration = .milliseconds(300)
        /// Time constant of the proportional catch-up towards the target lag: at least this,
        /// and at least `catchUpLagMultiple` times the current target lag, so bursty streams
        /// drain their buffer gently while token streams catch up quickly.
        public var catchUpTime: Duration = .milliseconds(80)
        public var catchUpLagMultiple: Double = 1
        /// Adaptive mode: text that arrived this long ago is shown at the next frame, whatever
        /// the rate law would do, as far as its unit allows (a word or code line still arriving
        /// waits for its end). The rate law keeps a buffer as long as the stream's typical gap
        /// so that a burst lasts through the gap after it; this caps what that buffer costs in
        /// latency. On held-out bursty traces (20 seeds, 60 Hz) it doubles the traces that meet
        /// every pacing-lab target (4 → 8 at 60 Hz, 1 → 11 at 120 Hz) and changes no
        /// steady, fast, cached or CJK result. `nil`
        /// leaves the rate law alone.
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
        /// A held trailing word in prose is shown once the network has been silent for this
        /// long and for `stallGapMultiple` times the stream's typical gap between chunks: a
        /// stall, not the stream's usual rhythm (a token stream stalls after 250 ms; a
        /// bursty proxy only after a silence several times its usual gaps). The word may be
        /// partial, but a finished word never stays hidden through a stall.
        public var partialWordRelease: Duration = .milliseconds(250)
        public var stallGapMultiple: Double = 8
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
    /// Milliseconds as a `Double`, for the rate arithmetic.
    var milliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
