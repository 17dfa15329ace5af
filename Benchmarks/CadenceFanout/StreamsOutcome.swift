import CadenceBenchmarkKit
import Foundation

/// What one ``StreamsRun`` measured on one node, and the figures the `streams` and `floor` commands
/// print from it.
struct StreamsOutcome {
    /// Idle keep-alive connections measured on the node (``StreamsRun/measure(_:client:idleConnections:)``).
    struct IdleConnections {
        var count: Int
        /// Server memory per connection; `nil` when the node closed some before the measurement.
        var bytesEach: Int?
        var closedEarly: Int
    }

    let run: StreamsRun
    /// `VmRSS` of the node with the answers started and no reader, with every reader connected, the
    /// highest sampled while streaming, and `VmHWM` at the end.
    var before = 0, connected = 0, streamingResident = 0, peak = 0
    var connectSeconds = 0.0
    var idle: IdleConnections?
    var load = 0.0
    /// `CLOCK_MONOTONIC` at the start signal.
    var goTime: Int64 = 0
    var results: [ReaderResult] = []
    var serverCPU = 0.0, clientCPU = 0.0, otherCPU = 0.0, serverCPUClosing = 0.0

    init(run: StreamsRun) { self.run = run }

    var received: Int { results.reduce(0) { $0 + $1.tokens } }
    var expected: Int { run.readers * run.plan.tokens }
    var lost: Int { expected - received }
    var failures: [String] { results.compactMap(\.failure) }
    /// From the start signal to the last `complete` at any reader.
    var streamSeconds: Double { Double((results.map(\.completeArrival).max() ?? goTime) - goTime) / 1e9 }
    /// Tokens received by all readers ÷ ``streamSeconds``: with more offered than the node can carry,
    /// what it delivers at saturation.
    var eventsPerSecond: Double { Double(received) / streamSeconds }
    /// Server memory per connected, idle reader.
    var bytesPerReader: Int { (connected - before) / max(1, run.readers) }
    var latencies: Percentiles { Percentiles(results.flatMap(\.latencies)) }

    /// The `streams` figures, after `benchmark` and `registry`.
    func add(to figures: inout Figures) {
        let percentiles = latencies
        // Every answer ends within the last interval, so the last token of each competes with the
        // end of up to ten thousand streams at once (which a real server sees spread over time):
        // the percentiles without it show the streaming alone.
        let streaming = Percentiles(results.flatMap { $0.latencies.dropLast() })
        figures.add("readers", run.readers)
        figures.add("answers", run.answers)
        figures.add("tokens_per_answer", run.plan.tokens)
        figures.add("interval_ms", Int(run.plan.interval.seconds * 1000))
        figures.add("events_per_s_offered", Int(run.offeredEventsPerSecond), "tokens per second owed to all readers")
        figures.add("connect_s", connectSeconds, decimals: 2, "to open every stream")
        figures.add("rss_before_bytes", before, "server node, answers started, no reader")
        figures.add("rss_connected_bytes", connected, "every reader connected, before the first token")
        figures.add("rss_streaming_max_bytes", streamingResident, "highest sample (every 100 ms) while streaming")
        figures.add("hwm_bytes", peak, "VmHWM at the end")
        figures.add("bytes_per_stream", bytesPerReader, "connected, idle; goal ≤ 65,536")
        figures.add(
            "bytes_per_stream_streaming", (streamingResident - before) / max(1, run.readers), "while streaming")
        figures.add("events_expected", expected)
        figures.add("events_received", received)
        figures.add("lost_events", lost)
        figures.add("missing_sequences", results.reduce(0) { $0 + $1.missing })
        figures.add("duplicate_events", results.reduce(0) { $0 + $1.duplicates })
        figures.add("failed_readers", failures.count)
        figures.add("events_per_s", eventsPerSecond, decimals: 0, "delivered: received ÷ stream_s")
        figures.add(
            "p50_ms", percentiles.milliseconds(at: 0.50), decimals: 2,
            "production → arrival, every token at every reader")
        figures.add("p90_ms", percentiles.milliseconds(at: 0.90), decimals: 2)
        figures.add("p99_ms", percentiles.milliseconds(at: 0.99), decimals: 2, "goal ≤ 50")
        figures.add("p999_ms", percentiles.milliseconds(at: 0.999), decimals: 2)
        figures.add("max_ms", percentiles.milliseconds(at: 1), decimals: 2)
        figures.add(
            "p99_without_last_token_ms", streaming.milliseconds(at: 0.99), decimals: 2,
            "each answer's last token left out")
        figures.add("max_without_last_token_ms", streaming.milliseconds(at: 1), decimals: 2)
        figures.add("stream_s", streamSeconds, decimals: 2, "start signal → last complete")
        figures.add("server_cpu_s", serverCPU, decimals: 2, "node process, while streaming")
        figures.add("client_cpu_s", clientCPU, decimals: 2, "this process (readers), while streaming")
        figures.add(
            "server_cpu_closing_s", serverCPUClosing, decimals: 2, "node process, closing every connection at the end")
        figures.add("other_cpu_s", otherCPU, decimals: 2, "every other process (PostgreSQL, anything else running)")
        figures.add("load_average", load, decimals: 2, "1-minute, before the start signal")
        if let failure = failures.first { figures.add("first_failure", failure) }
    }

    /// Latency by token position, on standard error: shows whether delay gathers at the start, the
    /// end, or a moment.
    func printPerToken() {
        for index in 0..<run.plan.tokens {
            let column = Percentiles(results.compactMap { $0.latencies.count > index ? $0.latencies[index] : nil })
            let ms = { (fraction: Double) in formatted(column.milliseconds(at: fraction), decimals: 2) }
            FileHandle.standardError.write(
                Data("token \(index + 1): p50 \(ms(0.5)) ms, p99 \(ms(0.99)) ms, max \(ms(1)) ms\n".utf8))
        }
    }
}
