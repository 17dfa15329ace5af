/// How much of each answer the server keeps for resuming clients, and for how long.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.replay = ReplayLimits(maxEvents: 2_000, maxBytes: 1 << 20, retention: .seconds(120))
/// ```
public struct ReplayLimits: Sendable, Hashable {
    /// The most events kept per answer; older ones are dropped first.
    public var maxEvents: Int
    /// The most bytes of event JSON kept per answer.
    public var maxBytes: Int
    /// How long a finished answer stays available for resuming.
    public var retention: Duration

    public init(maxEvents: Int = 10_000, maxBytes: Int = 4 << 20, retention: Duration = .seconds(300)) {
        self.maxEvents = maxEvents
        self.maxBytes = maxBytes
        self.retention = retention
    }
}
