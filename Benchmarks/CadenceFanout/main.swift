// Fan-out benchmarks of the reference server (issue 13). Not tests: they print figures and assert
// nothing; run them in release mode, on demand, never in CI. See docs/benchmarks.md.
//
//   swift build -c release --product CadenceFanout
//   .build/release/CadenceFanout streams --readers 10000 [--registry postgres] [--compare-floor] [--json]
//   .build/release/CadenceFanout floor --readers 10000 [--json]
//   .build/release/CadenceFanout shared [--nodes 3] [--json]
//
// The server runs in a child process (this executable again, as `node`, or `floor-node` for the
// floor), so its memory is its own. `COMMAND --help` describes a command's options.

import CadenceBenchmarkKit
import Foundation

let commands: [(name: String, summary: String, run: ([String]) async throws -> Void)] = [
    (
        "streams", "P6: memory per stream and production-to-arrival latency with N SSE readers on one node",
        StreamsBenchmark.run
    ),
    (
        "floor", "P6's floor: the streams benchmark against a minimal SwiftNIO server writing the same frames",
        FloorBenchmark.run
    ),
    (
        "shared", "events/s appended and fanned out through PostgreSQL with three nodes, against memory",
        SharedAnswersBenchmark.run
    ),
]

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "node":
        try await ServerNode.run(arguments: arguments.dropFirst())
    case "floor-node":
        try await FloorNode.run(arguments: arguments.dropFirst())
    case let name? where commands.contains { $0.name == name }:
        try await commands.first { $0.name == name }!.run(Array(arguments.dropFirst()))
    default:
        print("usage: CadenceFanout COMMAND [OPTIONS] [--json]")
        for command in commands { print("  \(command.name)  \(command.summary)") }
        exit(arguments.isEmpty || arguments.first == "--help" || arguments.first == "--list" ? 0 : 2)
    }
} catch {
    FileHandle.standardError.write(Data("CadenceFanout: \(error)\n".utf8))
    exit(1)
}
