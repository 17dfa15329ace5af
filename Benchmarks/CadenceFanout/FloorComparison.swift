import CadenceBenchmarkKit

/// `CadenceFanout streams --compare-floor`: a Cadence node, then the floor and then the second floor
/// (``FloorBenchmark``: ``FloorServer``, ``HummingbirdFloor``), back to back with the same readers and
/// rates, and how they compare.
///
/// - `cadence_events_s`, `floor_events_s`: tokens received by all readers ÷ the time from the start
///   signal to the last `complete`; at saturation (more offered than the node carries), what each
///   delivers. `ratio` is Cadence's ÷ the floor's; `hummingbird_floor_events_s` and
///   `hummingbird_ratio` the same for the second floor.
/// - `cadence_p99_ms`, `floor_p99_ms`: production to arrival, every token at every reader.
/// - `lost`: tokens owed but not received, in the three runs together (each run's apart too).
/// - `idle_reader_bytes`: the Cadence node's memory per connected, idle SSE reader;
///   `keepalive_connection_bytes`: its memory per idle keep-alive connection that has sent one
///   `GET /healthz`, measured on the same node the same way (`VmRSS` with them − without them),
///   right after the readers (null if the node closed any of them before the measurement).
enum FloorComparison {
    /// Idle keep-alive connections at most: a reader's socket and one of these each take a file
    /// descriptor in both processes, under a limit of 20,000 here.
    static let maxIdleConnections = 5_000

    static func measure(
        _ run: StreamsRun, registry: String, postgresURL: String?, _ client: ReaderClient
    ) async throws -> Figures {
        let idleConnections = min(run.readers, maxIdleConnections)
        let cadence = try await NodeProcess.with(postgresURL: postgresURL) { node in
            try await run.measure(node, client: client, idleConnections: idleConnections)
        }
        let floor = try await FloorBenchmark.measure(run, client, hummingbird: false)
        let hummingbird = try await FloorBenchmark.measure(run, client, hummingbird: true)

        var figures = Figures()
        figures.add("benchmark", "streams")
        figures.add("compared_with", "floor")
        figures.add("registry", registry, "Cadence's; the floor has no registry")
        figures.add("readers", run.readers)
        figures.add("answers", run.answers)
        figures.add("tokens_per_answer", run.plan.tokens)
        figures.add("interval_ms", Int(run.plan.interval.seconds * 1000))
        figures.add("events_per_s_offered", Int(run.offeredEventsPerSecond), "tokens per second owed to all readers")
        figures.add("cadence_events_s", cadence.eventsPerSecond, decimals: 0, "delivered: received ÷ stream time")
        figures.add("floor_events_s", floor.eventsPerSecond, decimals: 0)
        figures.add(
            "ratio", cadence.eventsPerSecond / floor.eventsPerSecond, decimals: 3,
            "Cadence ÷ floor; goal ≥ 0.70 in memory, ≥ 0.60 through PostgreSQL, at saturation")
        figures.add("cadence_p99_ms", cadence.latencies.milliseconds(at: 0.99), decimals: 2, "goal ≤ 50")
        figures.add("floor_p99_ms", floor.latencies.milliseconds(at: 0.99), decimals: 2)
        figures.add(
            "hummingbird_floor_events_s", hummingbird.eventsPerSecond, decimals: 0,
            "the second floor: a Hummingbird route writing the same frames")
        figures.add(
            "hummingbird_ratio", cadence.eventsPerSecond / hummingbird.eventsPerSecond, decimals: 3,
            "Cadence ÷ the Hummingbird floor; goal ≥ 0.90 where 0.70 of the first is out of reach")
        figures.add("hummingbird_floor_p99_ms", hummingbird.latencies.milliseconds(at: 0.99), decimals: 2)
        figures.add("lost", cadence.lost + floor.lost + hummingbird.lost, "all three runs; goal 0")
        figures.add("idle_reader_bytes", cadence.bytesPerReader, "Cadence node, per connected idle SSE reader")
        figures.add(
            "keepalive_connection_bytes", cadence.idle?.bytesEach.map(Double.init) ?? .nan, decimals: 0,
            "Cadence node, per idle keep-alive connection after one GET /healthz")
        figures.add("keepalive_connections", idleConnections)
        figures.add("keepalive_connections_closed_early", cadence.idle?.closedEarly ?? 0)
        for (name, outcome) in [("cadence", cadence), ("floor", floor), ("hummingbird_floor", hummingbird)] {
            figures.add("\(name)_p50_ms", outcome.latencies.milliseconds(at: 0.5), decimals: 2)
            figures.add("\(name)_max_ms", outcome.latencies.milliseconds(at: 1), decimals: 2)
            figures.add("\(name)_lost", outcome.lost)
            figures.add("\(name)_failed_readers", outcome.failures.count)
            figures.add("\(name)_stream_s", outcome.streamSeconds, decimals: 2, "start signal → last complete")
            figures.add("\(name)_server_cpu_s", outcome.serverCPU, decimals: 2, "node process, while streaming")
            figures.add(
                "\(name)_server_cpu_us_per_event", outcome.serverCPU * 1e6 / Double(max(1, outcome.received)),
                decimals: 1)
            figures.add("\(name)_client_cpu_s", outcome.clientCPU, decimals: 2, "the readers, while streaming")
            figures.add("\(name)_other_cpu_s", outcome.otherCPU, decimals: 2, "every other process")
            figures.add("\(name)_load_average", outcome.load, decimals: 2, "1-minute, before the start signal")
        }
        figures.add("floor_idle_reader_bytes", floor.bytesPerReader, "floor node, per connected idle SSE reader")
        figures.add(
            "hummingbird_floor_idle_reader_bytes", hummingbird.bytesPerReader,
            "the second floor's node, per connected idle SSE reader: what Hummingbird's request handling holds")
        if let failure = (cadence.failures + floor.failures + hummingbird.failures).first {
            figures.add("first_failure", failure)
        }
        return figures
    }
}
