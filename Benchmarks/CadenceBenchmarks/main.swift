// Cadence's release-mode benchmarks. Not tests: they print figures, and assert nothing.
//
//   swift run -c release CadenceBenchmarks            # every benchmark
//   swift run -c release CadenceBenchmarks sse        # only the SSE decoder
//   swift run -c release CadenceBenchmarks sse.tokens # one case of it (for profiling)
//   swift run -c release CadenceBenchmarks --list
//
// To add one, write a type with a `run(cases:)` and list it in `benchmarks` below. It is given
// the case names that followed a dot (`sse.tokens` → ["tokens"]), or [] for all of its cases.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let benchmarks: [(name: String, summary: String, run: (_ cases: [String]) -> Void)] = [
    ("sse", "SSEDecoder throughput on token-sized and 64 KB events, against a bare LF scan", SSEBenchmark.run),
    ("markdown", "incremental markdown parsing of a long answer, against cmark-gfm", MarkdownBenchmark.run),
    ("citations", "the streaming citation processor on a long answer, against copying its characters", CitationBenchmark.run),
    ("json", "Core's JSON reader against Foundation's JSONSerialization and JSONDecoder", JSONBenchmark.run),
    ("transcript", "a full-screen chat frame on a long conversation: versions against whole snapshots", TranscriptBenchmark.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--list") || arguments.contains("--help") || arguments.contains("-h") {
    print("usage: CadenceBenchmarks [--list] [NAME…]")
    for benchmark in benchmarks { print("  \(benchmark.name)  \(benchmark.summary)") }
} else {
    let requests = arguments.map { argument in
        (
            name: String(argument.prefix { $0 != "." }),
            case: argument.contains(".") ? String(argument.drop { $0 != "." }.dropFirst()) : nil
        )
    }
    if let unknown = requests.first(where: { request in !benchmarks.contains { $0.name == request.name } }) {
        print("unknown benchmark \(unknown.name); known: \(benchmarks.map(\.name).joined(separator: ", "))")
        exit(2)
    }
    for benchmark in benchmarks {
        let mine = requests.filter { $0.name == benchmark.name }
        guard requests.isEmpty || !mine.isEmpty else { continue }
        benchmark.run(mine.contains { $0.case == nil } ? [] : mine.compactMap(\.case))
    }
}
