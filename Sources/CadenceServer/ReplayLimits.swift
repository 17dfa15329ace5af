/// How much of each answer the server keeps for resuming clients, and for how long.
///
/// The rule: an answer's log keeps every event of the last ``window`` (60 s), or its newest
/// ``maxBytes`` (16 MiB), whichever holds more; and never more than ``ceilingBytes`` (64 MiB), so
/// one answer that floods cannot exhaust memory (its oldest events then go first, even recent ones).
/// Each event counts its JSON bytes plus ``ReplayLimits/eventOverhead``.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.replay = ReplayLimits(maxEvents: 2_000, maxBytes: 1 << 20, retention: .seconds(120))
/// ```
public struct ReplayLimits: Sendable, Hashable {
    /// The bytes each kept event counts beyond its JSON: what keeping one costs besides its text.
    public static let eventOverhead = 128

    /// The most events kept once they are older than ``window`` (no limit by default: the byte rules
    /// bound the log, as each event counts at least ``eventOverhead`` bytes).
    public var maxEvents: Int
    /// The bytes of events kept whatever their age; older ones are dropped first once they are also
    /// older than ``window``.
    public var maxBytes: Int
    /// How long an event is kept even past ``maxBytes`` or ``maxEvents``, up to ``ceilingBytes``:
    /// a reader that pauses this long can still resume.
    public var window: Duration
    /// The most bytes kept, whatever the window says. At least ``maxBytes``.
    public var ceilingBytes: Int
    /// How long a finished answer stays available for resuming.
    public var retention: Duration

    public init(
        maxEvents: Int = .max, maxBytes: Int = 16 << 20, window: Duration = .seconds(60),
        ceilingBytes: Int = 64 << 20, retention: Duration = .seconds(300)
    ) {
        self.maxEvents = maxEvents
        self.maxBytes = maxBytes
        self.window = window
        self.ceilingBytes = max(ceilingBytes, maxBytes)
        self.retention = retention
    }
}
