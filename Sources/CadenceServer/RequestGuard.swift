import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// What the server checks on every connection before Hummingbird sees a request: what a browser
/// page may do (``BrowserPolicy``); who sent each request head and its declared body size
/// (``RequestAdmission``), and the sender's rate (``SubjectRateLimiter``); the time a head, a body and
/// an idle keep-alive spell may take (``RequestHeadDeadline``); how many connections a client address
/// has open and how many are busy (``ConnectionLedger``); and, when the server stops, that a
/// connection which has not sent a request head yet closes at once (``RequestGuardHandler``).
///
/// Why in the channel pipeline rather than in router middleware: a refused WebSocket upgrade must be
/// answered with a real 401 (Hummingbird's upgrade turns any refusal from the WebSocket router into a
/// bare 400), and a head that never completes never reaches the router at all.
struct RequestGuard: Sendable {
    let admission: RequestAdmission
    let browser: BrowserPolicy
    let timeouts: RequestHeadTimer.Timeouts
    let metrics: ServerMetrics
    let ledger: ConnectionLedger
    /// Requests per minute per subject (``ServerConfiguration/rateLimit``), if limited.
    let rateLimiter: SubjectRateLimiter?

    /// - Throws: ``ServerStartError`` for a configuration ``BrowserPolicy`` refuses.
    init(
        configuration: ServerConfiguration, metrics: ServerMetrics, jwt: JWTVerifier? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(ServerStartError) {
        admission = RequestAdmission(configuration: configuration, jwt: jwt)
        browser = try BrowserPolicy(configuration: configuration)
        // NIO's conversion saturates at `Int64.max` nanoseconds (about 292 years) instead of wrapping.
        timeouts = RequestHeadTimer.Timeouts(
            head: TimeAmount(configuration.requestReadTimeout),
            body: TimeAmount(configuration.requestBodyTimeout ?? configuration.requestReadTimeout),
            idle: TimeAmount(configuration.idleTimeout ?? configuration.requestReadTimeout))
        ledger = ConnectionLedger(
            maxBusy: configuration.maxConnections, maxPerClient: configuration.maxConnectionsPerClient)
        self.metrics = metrics
        rateLimiter = configuration.rateLimit.map { SubjectRateLimiter(perMinute: $0, clock: clock) }
    }

    /// Wraps a child channel so that each of its connections is guarded.
    func guarding<Inner: ServerChildChannel>(_ inner: Inner) -> GuardedChildChannel<Inner> {
        GuardedChildChannel(inner: inner, requestGuard: self)
    }

    /// Adds the guard's handlers to a connection whose HTTP/1 pipeline is set up: one that sees its
    /// bytes first, and one right after the request decoder, before the WebSocket upgrade handler
    /// and Hummingbird's, that sees every request head. A connection set up after the listener
    /// closed (the server is stopping) is closed as soon as it is active.
    func install(on channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        let timer = RequestHeadTimer(timeouts: timeouts, channel: channel, metrics: metrics, ledger: ledger)
        let stopping = channel.parent.map { !$0.isActive } ?? false
        try pipeline.addHandler(RequestBytesWatcher(timer: timer), position: .first)
        try pipeline.addHandler(
            RequestGuardHandler(
                admission: admission, browser: browser, rateLimiter: rateLimiter, timer: timer, metrics: metrics,
                stopping: stopping),
            position: .after(decoder))
    }
}

/// A child channel whose connections get the ``RequestGuard``'s handlers.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let requestGuard: RequestGuard

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let requestGuard = self.requestGuard
        return inner.setup(channel: channel, logger: logger)
            .assumeIsolated()
            .flatMapThrowing { value in
                try requestGuard.install(on: channel)
                return value
            }
            .nonisolated()
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
