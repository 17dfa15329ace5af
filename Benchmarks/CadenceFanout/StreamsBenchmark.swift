import CadenceBenchmarkKit
import Foundation
import NIOPosix

/// P6: one server node with N concurrent SSE readers on loopback. Measures the server's memory per
/// stream (from the node process's `VmRSS`, before the readers and with them) and the gap between
/// each token's production and its arrival at every reader, in memory or through PostgreSQL.
///
///     CadenceFanout streams --readers 10000 [--registry memory|postgres] [--postgres URL]
///         [--readers-per-answer 100] [--tokens 100] [--interval-ms 100] [--client-threads 2] [--json]
///         [--per-token]
///
/// The readers are spread over answers (`--readers-per-answer` each); the answers start with
/// `POST /v1/answers` and wait for a start signal, every reader connects with
/// `GET /v1/answers/{id}/events`, and then every answer produces `--tokens` tokens `--interval-ms`
/// apart, the answers' schedules evenly offset within one interval. Readers keep their connections
/// until every one has its `complete`; closing them all is measured apart. `--per-token` prints the
/// latency percentiles of each token position to standard error.
enum StreamsBenchmark {
    static let options: Set<String> = [
        "readers", "registry", "postgres", "readers-per-answer", "tokens", "interval-ms", "client-threads",
    ]

    static func run(_ arguments: [String]) async throws {
        let options = try Options(arguments, known: Self.options, flags: ["json", "per-token"])
        let readerCount = try options.integer("readers", default: 1_000)
        let perAnswer = max(1, try options.integer("readers-per-answer", default: 100))
        let plan = TimestampEngine.Plan(
            tokens: try options.integer("tokens", default: 100),
            interval: .milliseconds(try options.integer("interval-ms", default: 100)))
        guard plan.interval > .zero else { throw BenchmarkError("--interval-ms must be at least 1") }
        let registry = options.string("registry") ?? "memory"
        guard ["memory", "postgres"].contains(registry) else {
            throw BenchmarkError("--registry is memory or postgres")
        }
        let answerCount = (readerCount + perAnswer - 1) / perAnswer
        raiseOpenFileLimit()

        let postgres = registry == "postgres" ? try await BenchmarkPostgres.start(url: options.string("postgres")) : nil
        defer { postgres?.stop() }
        let node = try await NodeProcess.start(postgresURL: postgres?.url)
        let group = MultiThreadedEventLoopGroup(
            numberOfThreads: max(1, try options.integer("client-threads", default: 2)))
        let client = ReaderClient(group: group)

        // The answers, each holding its tokens until `go`; schedules offset evenly within one interval.
        var answerIDs: [String] = []
        for index in 0..<answerCount {
            var answerPlan = plan
            answerPlan.phase = plan.interval * index / answerCount
            answerIDs.append(try await client.startAnswer(port: node.port, query: answerPlan.query))
        }
        try await Task.sleep(for: .seconds(1))
        let before = node.memory()

        let connectStart = ContinuousClock.now
        let targets = (0..<readerCount).map {
            (port: node.port, path: "/v1/answers/\(answerIDs[$0 % answerCount])/events")
        }
        let readers = try await client.connect(targets, expectedTokens: plan.tokens, recordsLatencies: true)
        let connectSeconds = (ContinuousClock.now - connectStart).seconds
        try await Task.sleep(for: .seconds(1))
        let connected = node.memory()

        let load = MachineLoad.loadAverage()
        let (serverCPU, clientCPU, machineCPU) = (node.cpuSeconds(), processCPUSeconds(), MachineLoad.busyCPUSeconds())
        let goTime = monotonicNanoseconds()
        node.go()
        let sampler = MemorySampler.start(node)
        let results = await Self.results(of: readers, deadline: plan.interval * plan.tokens + .seconds(120))
        let streamingResident = await sampler.stop()
        let (serverCPUUsed, clientCPUUsed) = (node.cpuSeconds() - serverCPU, processCPUSeconds() - clientCPU)
        let otherCPUUsed = MachineLoad.busyCPUSeconds() - machineCPU - serverCPUUsed - clientCPUUsed
        let peak = node.memory().peak
        // Closing ten thousand connections at once is work of its own for the server: measured apart.
        let serverCPUBeforeClose = node.cpuSeconds()
        await Self.close(readers)
        try await Task.sleep(for: .seconds(1))
        let serverCPUClosing = node.cpuSeconds() - serverCPUBeforeClose
        await node.stop()
        try await group.shutdownGracefully()

        var latencies: [Int64] = []
        latencies.reserveCapacity(readerCount * plan.tokens)
        for result in results { latencies += result.latencies }
        let percentiles = Percentiles(latencies)
        // Every answer ends within the last interval, so the last token of each competes with the
        // end of up to ten thousand streams at once (which a real server sees spread over time):
        // the percentiles without it show the streaming alone.
        let streaming = Percentiles(results.flatMap { $0.latencies.dropLast() })
        if options.flags.contains("per-token") {
            // Latency by token position: shows whether delay gathers at the start, the end, or a moment.
            for index in 0..<plan.tokens {
                let column = Percentiles(results.compactMap { $0.latencies.count > index ? $0.latencies[index] : nil })
                let ms = { (fraction: Double) in formatted(column.milliseconds(at: fraction), decimals: 2) }
                FileHandle.standardError.write(
                    Data("token \(index + 1): p50 \(ms(0.5)) ms, p99 \(ms(0.99)) ms, max \(ms(1)) ms\n".utf8))
            }
        }
        let received = results.reduce(0) { $0 + $1.tokens }
        let expected = readerCount * plan.tokens
        let lastArrival = results.map(\.completeArrival).max() ?? goTime
        let failures = results.compactMap(\.failure)

        var figures = Figures()
        figures.add("benchmark", "streams")
        figures.add("registry", registry)
        figures.add("readers", readerCount)
        figures.add("answers", answerCount)
        figures.add("tokens_per_answer", plan.tokens)
        figures.add("interval_ms", Int(plan.interval.seconds * 1000))
        figures.add(
            "events_per_s_offered", Int(Double(readerCount) / plan.interval.seconds),
            "tokens per second owed to all readers together")
        figures.add(
            "connect_s", connectSeconds, decimals: 2, "to open every stream, \(client.connectionsInFlight) at a time")
        figures.add("rss_before_bytes", before.resident, "server node, answers started, no reader")
        figures.add("rss_connected_bytes", connected.resident, "every reader connected, before the first token")
        figures.add("rss_streaming_max_bytes", streamingResident, "highest sample (every 100 ms) while streaming")
        figures.add("hwm_bytes", peak, "VmHWM at the end")
        figures.add(
            "bytes_per_stream", (connected.resident - before.resident) / max(1, readerCount),
            "connected, idle; goal ≤ 65,536")
        figures.add(
            "bytes_per_stream_streaming", (streamingResident - before.resident) / max(1, readerCount), "while streaming"
        )
        figures.add("events_expected", expected)
        figures.add("events_received", received)
        figures.add("lost_events", expected - received)
        figures.add("missing_sequences", results.reduce(0) { $0 + $1.missing })
        figures.add("duplicate_events", results.reduce(0) { $0 + $1.duplicates })
        figures.add("failed_readers", failures.count)
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
        figures.add("stream_s", Double(lastArrival - goTime) / 1e9, decimals: 2, "start signal → last complete")
        figures.add("server_cpu_s", serverCPUUsed, decimals: 2, "node process, while streaming")
        figures.add("client_cpu_s", clientCPUUsed, decimals: 2, "this process (readers), while streaming")
        figures.add(
            "server_cpu_closing_s", serverCPUClosing, decimals: 2, "node process, closing every connection at the end")
        figures.add("other_cpu_s", otherCPUUsed, decimals: 2, "every other process (PostgreSQL, anything else running)")
        figures.add("load_average", load, decimals: 2, "1-minute, before the start signal")
        if let failure = failures.first { figures.add("first_failure", failure) }
        print(options.json ? figures.json : figures.table(title: "streams: \(readerCount) SSE readers, \(registry)"))
    }

    /// Every reader's result, closing the streams still open at `deadline` (they count as lost).
    static func results(of readers: [ReaderClient.Reader], deadline: Duration) async -> [ReaderResult] {
        let watchdog = Task {
            try await Task.sleep(for: deadline)
            for reader in readers { reader.channel.close(promise: nil) }
        }
        var results: [ReaderResult] = []
        results.reserveCapacity(readers.count)
        for reader in readers {
            results.append((try? await reader.done.get()) ?? ReaderResult(failure: "the reader failed"))
        }
        watchdog.cancel()
        return results
    }

    /// Closes every reader's connection and waits until each is closed.
    static func close(_ readers: [ReaderClient.Reader]) async {
        for reader in readers { reader.channel.close(promise: nil) }
        for reader in readers { try? await reader.channel.closeFuture.get() }
    }
}

/// Samples a node's resident memory every 100 ms and keeps the highest.
struct MemorySampler {
    private let task: Task<Int, Never>

    static func start(_ node: NodeProcess) -> MemorySampler {
        MemorySampler(
            task: Task {
                var highest = 0
                while !Task.isCancelled {
                    highest = max(highest, node.memory().resident)
                    try? await Task.sleep(for: .milliseconds(100))
                }
                return highest
            })
    }

    func stop() async -> Int {
        task.cancel()
        return await task.value
    }
}
