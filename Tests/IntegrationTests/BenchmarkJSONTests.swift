import Foundation
import Testing

/// The built `CadenceBenchmarks` (and `CadenceFanout`) binary with `--json`: standard output is
/// exactly one JSON object holding the figures docs/benchmarks.md names, counting what was asked for.
/// Tiny sizes, so the debug build runs them in seconds; no figure is held to a time or a size (that is the
/// benchmarks' job, in release mode).
@Suite("CadenceBenchmarks --json", .serialized)
struct BenchmarkJSONTests {
    /// Built next to `cadence` (`swift build --build-tests` builds every product).
    static let binary = CadenceBinary.url.deletingLastPathComponent().appendingPathComponent("CadenceBenchmarks")

    /// `CadenceFanout`, the server benchmarks, built beside it.
    static let fanout = binary.deletingLastPathComponent().appendingPathComponent("CadenceFanout")

    static func run(_ arguments: [String], binary: URL = binary) async throws -> CadenceBinary.Result {
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "\(binary.path) is not built: run swift build --build-tests")
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try CadenceBinary.runBlocking(arguments, stdin: nil, environment: [:], executable: binary)
                    })
            }
        }
    }

    /// Standard output as one JSON object on one line: nothing else may be there.
    static func object(_ result: CadenceBinary.Result) throws -> [String: Any] {
        let lines = result.stdout.split(separator: "\n")
        try #require(
            lines.count == 1, "stdout should be one JSON line, not:\n\(result.stdout)\nstderr:\n\(result.stderr)")
        let value = try JSONSerialization.jsonObject(with: Data(lines[0].utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(lines[0])")
    }

    static func number(_ figures: [String: Any], _ key: String) throws -> Double {
        try #require((figures[key] as? NSNumber)?.doubleValue, "\(key) is missing or not a number in \(figures)")
    }

    @Test func clientReportsCPUPerTokenBesideItsFloor() async throws {
        let result = try await Self.run([
            "client", "--streams", "3", "--tokens", "20", "--interval-ms", "5", "--floor-tokens", "2000", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try Self.object(result)
        #expect(figures["benchmark"] as? String == "client")
        #expect(try Self.number(figures, "lost_tokens") == 0)
        #expect(try Self.number(figures, "failed_streams") == 0)
        #expect(try Self.number(figures, "floor_tokens") == 2000)
        for key in ["cpu_us_per_token_1", "cpu_us_per_token_3", "floor_cpu_us_per_token"] {
            #expect(try Self.number(figures, key) > 0, "\(key)")
        }
    }

    @Test func latencyCountsEveryTokenOfEveryStream() async throws {
        let result = try await Self.run([
            "latency", "--streams", "3", "--tokens", "20", "--interval-ms", "5", "--frame-hz", "60", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try Self.object(result)
        #expect(figures["benchmark"] as? String == "latency")
        #expect(try Self.number(figures, "streams") == 3)
        #expect(try Self.number(figures, "samples") == 60)
        #expect(try Self.number(figures, "baseline_samples") == 20)
        #expect(try Self.number(figures, "lost_tokens") == 0)
        #expect(try Self.number(figures, "failed_streams") == 0)
        let (p50, p99, max) = (
            try Self.number(figures, "p50_ms"), try Self.number(figures, "p99_ms"), try Self.number(figures, "max_ms")
        )
        #expect(p50 > 0 && p50 <= p99 && p99 <= max, "p50 \(p50), p99 \(p99), max \(max)")
        let baseline = (try Self.number(figures, "baseline_p50_ms"), try Self.number(figures, "baseline_max_ms"))
        #expect(baseline.0 > 0 && baseline.0 <= baseline.1)
        #expect(result.stderr.contains("p99_ms"), "the table goes to standard error")
    }

    @Test func memoryMeasuresEveryStreamHoldingTheWholeAnswer() async throws {
        let result = try await Self.run([
            "memory", "--streams", "3", "--answer-bytes", "20000", "--token-bytes", "100", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try Self.object(result)
        #expect(figures["benchmark"] as? String == "memory")
        #expect(try Self.number(figures, "streams") == 3)
        #expect(try Self.number(figures, "answer_bytes") == 20_000)
        #expect(try Self.number(figures, "text_bytes_received") == 60_000)
        #expect(try Self.number(figures, "goal_bytes_per_stream") == 2 * 20_000 + 65_536)
        for key in ["bytes_per_stream_1", "bytes_per_stream_100", "baseline_rss_bytes_1", "baseline_rss_bytes_100"] {
            let value = try Self.number(figures, key)
            #expect(value == value.rounded(), "\(key) should be a whole number of bytes, not \(value)")
        }
        #expect(try Self.number(figures, "baseline_rss_bytes_100") > 0, "VmRSS was not read")
    }

    /// Cadence and then the two floors, with the same readers: the keys docs/benchmarks.md names, and
    /// every token of the three runs delivered to every reader.
    @Test func fanoutComparesCadenceWithTheFloorOnTheSameReaders() async throws {
        let result = try await Self.run(
            [
                // More readers than the server lets one client address open by default (64): the
                // benchmark's node lifts that cap, since every reader comes from 127.0.0.1.
                "streams", "--compare-floor", "--readers", "70", "--readers-per-answer", "35", "--tokens", "5",
                "--interval-ms", "10", "--json",
            ], binary: Self.fanout)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try Self.object(result)
        #expect(figures["benchmark"] as? String == "streams")
        #expect(try Self.number(figures, "readers") == 70)
        for key in [
            "cadence_p99_ms", "floor_p99_ms", "idle_reader_bytes", "keepalive_connection_bytes",
            "floor_idle_reader_bytes",
        ] {
            _ = try Self.number(figures, key)
        }
        let cadence = try Self.number(figures, "cadence_events_s")
        let floor = try Self.number(figures, "floor_events_s")
        #expect(cadence > 0 && floor > 0, "cadence \(cadence), floor \(floor)")
        #expect(abs(try Self.number(figures, "ratio") - cadence / floor) < 0.01)
        #expect(try Self.number(figures, "lost") == 0)
        #expect(try Self.number(figures, "cadence_lost") == 0)
        #expect(try Self.number(figures, "floor_lost") == 0)
        #expect(try Self.number(figures, "hummingbird_floor_lost") == 0)
        let hummingbird = try Self.number(figures, "hummingbird_floor_events_s")
        #expect(hummingbird > 0)
        #expect(abs(try Self.number(figures, "hummingbird_ratio") - cadence / hummingbird) < 0.01)
        #expect(try Self.number(figures, "cadence_failed_readers") == 0)
        #expect(try Self.number(figures, "floor_failed_readers") == 0)
        #expect(try Self.number(figures, "hummingbird_floor_failed_readers") == 0)
        #expect(try Self.number(figures, "keepalive_connections_closed_early") == 0)
    }

    @Test func anUnknownOptionIsAUsageErrorWithNothingOnStandardOutput() async throws {
        let result = try await Self.run(["latency", "--stream", "3", "--json"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--stream"))
    }
}
