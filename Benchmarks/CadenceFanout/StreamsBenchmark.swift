import CadenceBenchmarkKit
import Foundation
import NIOPosix

/// P6: one server node with N concurrent SSE readers on loopback. Measures the server's memory per
/// stream (from the node process's `VmRSS`, before the readers and with them) and the gap between
/// each token's production and its arrival at every reader, in memory or through PostgreSQL
/// (``StreamsRun``). With `--compare-floor`, the same readers and rates on the two floors right
/// after (``FloorComparison``).
enum StreamsBenchmark {
    static let usage = """
        usage: CadenceFanout streams [--readers 1000] [--readers-per-answer 100] [--tokens 100]
                 [--interval-ms 100] [--registry memory|postgres] [--postgres URL] [--client-threads 2]
                 [--per-token] [--compare-floor] [--json]

        N SSE readers on one Cadence node in a child process, spread over answers (--readers-per-answer
        each); every answer sends --tokens tokens --interval-ms apart, so the readers are owed
        readers × 1000 / interval-ms events per second. Reports the node's memory per stream,
        production-to-arrival latency of every token at every reader, and events delivered per second.
        --per-token prints each token position's latency percentiles to standard error.

        --compare-floor runs Cadence, then the floor (CadenceFanout floor: a minimal SwiftNIO server
        writing the same bytes), then the second floor (a Hummingbird route writing them) with the same
        readers and rates, and reports cadence_events_s, floor_events_s, ratio, cadence_p99_ms,
        floor_p99_ms, lost, idle_reader_bytes, keepalive_connection_bytes, hummingbird_floor_events_s
        and hummingbird_ratio. events/s compares the two at saturation only when more is offered
        than the node can carry (on two cores, e.g. --readers 10000 at the default 10 tokens/s, 100,000
        events/s); below that both deliver what is offered and the ratio is 1.
        """

    static func run(_ arguments: [String]) async throws {
        let options = try Options(
            arguments, known: StreamsRun.options.union(["registry", "postgres"]),
            flags: ["json", "per-token", "compare-floor", "help"])
        if options.flags.contains("help") { return print(usage) }
        let run = try StreamsRun(options)
        let registry = options.string("registry") ?? "memory"
        guard ["memory", "postgres"].contains(registry) else {
            throw BenchmarkError("--registry is memory or postgres")
        }
        raiseOpenFileLimit()
        let postgres = registry == "postgres" ? try await BenchmarkPostgres.start(url: options.string("postgres")) : nil
        defer { postgres?.stop() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: run.clientThreads)
        let client = ReaderClient(group: group)
        let figures: Figures
        do {
            if options.flags.contains("compare-floor") {
                figures = try await FloorComparison.measure(run, registry: registry, postgresURL: postgres?.url, client)
            } else {
                let outcome = try await NodeProcess.with(postgresURL: postgres?.url) { node in
                    try await run.measure(node, client: client)
                }
                if options.flags.contains("per-token") { outcome.printPerToken() }
                var streams = Figures()
                streams.add("benchmark", "streams")
                streams.add("registry", registry)
                outcome.add(to: &streams)
                figures = streams
            }
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
        let title =
            options.flags.contains("compare-floor")
            ? "streams against the floor: \(run.readers) SSE readers, \(registry)"
            : "streams: \(run.readers) SSE readers, \(registry)"
        print(options.json ? figures.json : figures.table(title: title))
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
