import CadenceCore
import CadenceEngine
import CoreMetrics
import Prometheus

/// The server's operational counters, exposed at `GET /metrics` in the Prometheus text format.
///
/// The registry reports answers and events; the routes report readers and resumes; the connection
/// guard reports refusals and timeouts; a model engine reports its first-token latency (as an
/// ``AnswerEngineObserver``).
///
/// Each server has a registry of its own, made through swift-metrics' API with a Prometheus factory
/// passed explicitly: the global `MetricsSystem` is never bootstrapped, so any number of servers can
/// run in one process (the tests start many) without sharing counts.
///
/// ```swift
/// let metrics = ServerMetrics()
/// metrics.answerStarted()
/// metrics.answerEnded(.cancelled(partialText: ""))
/// print(metrics.prometheusText())   // … cadence_answers_ended_total{ending="cancelled"} 1 …
/// ```
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let answersStarted: CoreMetrics.Counter
    private let answersEnded: [String: CoreMetrics.Counter]
    private let activeAnswers: Meter
    private let events: CoreMetrics.Counter
    private let leaseTakeovers: CoreMetrics.Counter
    private let activeReaders: Meter
    private let resumes: CoreMetrics.Counter
    private let firstToken: CoreMetrics.Timer
    private let refusals: [String: CoreMetrics.Counter]
    private let headTimeouts: CoreMetrics.Counter

    /// The codes of the requests refused before they are read (``RequestAdmission``, ``BrowserPolicy``,
    /// and a full `--max-connections`), of bodies that timed out (408), and of connections closed at
    /// once for `--max-connections-per-client`.
    static let refusalCodes = [
        "unauthorized", "too_large", "misdirected_request", "origin_not_allowed", "unsupported_media_type",
        "server_busy", "request_timeout", "too_many_connections",
    ]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // A model's first token takes from well under a second (a hosted API) to minutes (a local
        // model planning on a CPU).
        factory.durationHistogramBuckets["cadence_model_first_token_seconds"] = [
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120), .seconds(300),
        ]
        answersStarted = CoreMetrics.Counter(label: "cadence_answers_started_total", factory: factory)
        answersEnded = Self.counters("cadence_answers_ended_total", by: "ending", AnswerEnding.serverLabels, factory)
        activeAnswers = Meter(label: "cadence_active_answers", factory: factory)
        events = CoreMetrics.Counter(label: "cadence_events_appended_total", factory: factory)
        leaseTakeovers = CoreMetrics.Counter(label: "cadence_lease_takeovers_total", factory: factory)
        activeReaders = Meter(label: "cadence_active_readers", factory: factory)
        resumes = CoreMetrics.Counter(label: "cadence_resumes_total", factory: factory)
        firstToken = CoreMetrics.Timer(label: "cadence_model_first_token_seconds", factory: factory)
        refusals = Self.counters("cadence_requests_refused_total", by: "code", Self.refusalCodes, factory)
        headTimeouts = CoreMetrics.Counter(label: "cadence_request_head_timeouts_total", factory: factory)
        // Every series exists from the start, so a dashboard sees 0 rather than nothing.
        activeAnswers.set(0)
        activeReaders.set(0)
    }

    /// One counter `label` per value of the dimension `dimension`, each made now so that it reads 0
    /// before its first increment.
    private static func counters(
        _ label: String, by dimension: String, _ values: [String], _ factory: PrometheusMetricsFactory
    ) -> [String: CoreMetrics.Counter] {
        Dictionary(
            uniqueKeysWithValues: values.map { value in
                (value, CoreMetrics.Counter(label: label, dimensions: [(dimension, value)], factory: factory))
            })
    }

    /// An answer's engine started on this node.
    func answerStarted() {
        answersStarted.increment()
        activeAnswers.increment()
    }

    /// This node stopped producing an answer it started (its engine ended or was stopped).
    func answerStopped() {
        activeAnswers.decrement()
    }

    /// An answer ended, however it ended (counted once, by the node that appended its terminal event,
    /// which after a lease take-over is not the node that started it).
    func answerEnded(_ ending: AnswerEnding) {
        answersEnded[ending.serverLabel]?.increment()
    }

    /// `count` events were appended to answers' logs (memory or PostgreSQL).
    func eventsAppended(_ count: Int) {
        events.increment(by: Int64(count))
    }

    /// This node ended an answer whose owner's lease expired.
    func leaseTakenOver() {
        leaseTakeovers.increment()
    }

    /// A connection began following an answer (SSE, WebSocket); `resumed` when it came with a cursor.
    func readerOpened(resumed: Bool) {
        activeReaders.increment()
        if resumed { resumes.increment() }
    }

    /// A connection stopped following an answer.
    func readerClosed() {
        activeReaders.decrement()
    }

    /// With a model engine: how long the model took to send its first token.
    func modelFirstToken(after latency: Duration) {
        firstToken.recordNanoseconds(Self.nanoseconds(latency))
    }

    /// A request or connection was refused by the connection guard; `code` is the error code sent
    /// (``refusalCodes``).
    func requestRefused(code: String) {
        refusals[code]?.increment()
    }

    /// A connection was closed because its request head did not arrive within the read timeout.
    func requestHeadTimedOut() {
        headTimeouts.increment()
    }

    /// Every metric in the Prometheus text exposition format (version 0.0.4).
    func prometheusText() -> String {
        registry.emitToString()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}

extension ServerMetrics: AnswerEngineObserver {}

extension AnswerEnding {
    /// How the server names this ending: the `ending` label of `cadence_answers_ended_total`, and
    /// the `ending` column of a shared answer's row in PostgreSQL. Dashboards and databases read
    /// these words, so they never change: `complete`, `error`, `cancelled`, `interrupted`.
    var serverLabel: String {
        switch self {
        case .completed: "complete"
        case .failed: "error"
        case .cancelled: "cancelled"
        case .interrupted: "interrupted"
        }
    }

    /// Every ``serverLabel``, so that each series of the metric exists from the start.
    static let serverLabels = ["complete", "error", "cancelled", "interrupted"]
}
