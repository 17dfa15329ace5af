import NIOConcurrencyHelpers

/// What the sources of one process share: the HTTP requester and one ``RequestPacer`` per rate-limited
/// host, so that every answer together keeps to a host's rate, all on one clock.
///
/// ```swift
/// let kit = SearchKit(clock: ContinuousClock())
/// let sources = try choices.map { try $0.makeSource(corpus: corpus, environment: env, kit: kit) }
/// let fanout = SearchFanout(sources: sources, clock: ContinuousClock())
/// ```
public final class SearchKit: Sendable {
    public let http: SearchHTTP
    private let makePacer: @Sendable (Duration) -> RequestPacer
    private let pacers = NIOLockedValueBox<[String: RequestPacer]>([:])

    /// A kit on `clock` whose requester is `http`, or a new one keeping its answers in `cache`.
    public init<C: Clock<Duration>>(clock: C, http: SearchHTTP? = nil, cache: ResponseCache? = nil) {
        self.http = http ?? SearchHTTP(clock: clock, cache: cache)
        makePacer = { RequestPacer(interval: $0, clock: clock) }
    }

    /// The pacer of `host`, made with `interval` the first time it is asked for.
    public func pacer(for host: String, interval: Duration) -> RequestPacer {
        pacers.withLockedValue { pacers in
            if let pacer = pacers[host] { return pacer }
            let pacer = makePacer(interval)
            pacers[host] = pacer
            return pacer
        }
    }
}
