// Cadence's release-mode benchmarks. Not tests: they print figures, and assert nothing.
//
//   swift run -c release CadenceBenchmarks                  # every benchmark
//   swift run -c release CadenceBenchmarks sse              # only the SSE decoder
//   swift run -c release CadenceBenchmarks sse.tokens       # one case of it (for profiling)
//   swift run -c release CadenceBenchmarks latency --streams 100 --json
//   swift run -c release CadenceBenchmarks --list
//
// To add one, write a type with a `run(cases:options:)`, list it in `benchmarks` below with the
// options it takes, and report its figures to `reported`. It is given the case names that
// followed a dot (`sse.tokens` → ["tokens"]), or [] for all of its cases, and the `--name value`
// options. With `--json`, everything a benchmark prints goes to standard error, and standard output
// gets one JSON object per benchmark: its reported figures.
//
// `CadenceBenchmarks node` is the server node the `latency` and `memory` benchmarks start in a child
// process (see CadenceBenchmarkKit's `NodeProcess`).

import CadenceBenchmarkKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let benchmarks: [Benchmark] = [
    Benchmark("sse", "SSEDecoder throughput on token-sized and 64 KB events, against a bare LF scan") { cases, _ in
        SSEBenchmark.run(cases: cases)
    },
    Benchmark("markdown", "incremental markdown parsing of a long answer, against cmark-gfm") { cases, _ in
        MarkdownBenchmark.run(cases: cases)
    },
    Benchmark("citations", "the streaming citation processor on a long answer, against copying its characters") {
        cases, _ in CitationBenchmark.run(cases: cases)
    },
    Benchmark("json", "Core's JSON reader against Foundation's JSONSerialization and JSONDecoder") { cases, _ in
        JSONBenchmark.run(cases: cases)
    },
    Benchmark("transcript", "a full-screen chat frame on a long conversation: versions against whole snapshots") {
        cases, _ in TranscriptBenchmark.run(cases: cases)
    },
    Benchmark(
        "index", "the FTS5 corpus index on 10,000 documents: first index, unchanged re-index, query p50/p99, against hand-written BM25",
        options: IndexBenchmark.options
    ) { cases, options in try IndexBenchmark.run(cases: cases, options: options) },
    Benchmark(
        "latency", "P4: server write → AnswerViewModel text, N concurrent AnswerStreams against 1",
        options: LatencyBenchmark.options, run: LatencyBenchmark.run),
    Benchmark(
        "client", "the client's CPU per token, socket → AnswerViewModel, at 1 and N streams, against one task's floor",
        options: ClientBenchmark.options, run: ClientBenchmark.run),
    Benchmark(
        "relay", "the chat relay (serve --engine chat) against the model direct: added latency and tokens per CPU second",
        options: RelayBenchmark.options, run: RelayBenchmark.run),
    Benchmark(
        "memory", "P5: client resident memory per active stream of a 100 KB answer, at 1 and N streams",
        options: MemoryBenchmark.options, run: MemoryBenchmark.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "node" {
        try await ServerNode.run(arguments: arguments.dropFirst())
        exit(0)
    }
    if arguments.first == "model-node" {
        try await TimestampModel.run()
        exit(0)
    }
    if arguments.first == "relay-node" {
        try await RelayNode.run(arguments: arguments.dropFirst())
        exit(0)
    }
    let command = try BenchmarkCommand(arguments, benchmarks: benchmarks)
    if command.listsBenchmarks {
        print("usage: CadenceBenchmarks [--list] [--json] [NAME[.CASE]…] [--OPTION VALUE…]")
        for benchmark in benchmarks {
            let options = benchmark.options.sorted().map { "--\($0)" }.joined(separator: " ")
            print("  \(benchmark.name)  \(benchmark.summary)" + (options.isEmpty ? "" : " [\(options)]"))
        }
    } else {
        try await command.run()
    }
} catch {
    StandardOutput.write("CadenceBenchmarks: \(error)\n", to: 2)
    exit(2)
}
