import CadenceTesting
import Foundation
import Testing

/// `cadence decode` and `cadence render` stream their input: the built binary is fed hostile input
/// generated on the fly into a real pipe (100 MB with no newline, a 50 MB `data:` line, 10⁶ tiny
/// events or blocks), and its peak resident memory, as the kernel measures it (`ru_maxrss`, see
/// ``PeakMemoryProcess``), must stay under the configured limit plus a few MB over what the binary
/// needs to decode nothing at all. Nothing here reads a clock.
@Suite("Hostile input bounds", .serialized)
struct HostileInputTests {
    static let mib = 1 << 20
    /// What streaming may add over the limit: read and output buffers, the event being printed, and
    /// the allocator's slack. Reading the whole input first (what `decode` did) adds the input's size.
    static let slack = 6 * mib

    /// The binary's own peak on a few bytes of input: its code, libraries, runtime and tables. The
    /// larger of `decode`'s and `render`'s (rendering loads more code and tables).
    static let baseline: Int = {
        let small: [(arguments: [String], input: String)] = [
            (["decode", "--events", "-"], "data: x\n\n"), (["render", "--to", "html", "-"], "a *b*\n\n"),
        ]
        return small.map { run in
            (try? measureBlocking(run.arguments) { write in _ = write(Array(run.input.utf8)) })?.peakResidentBytes ?? 0
        }.max() ?? 0
    }()

    static func measureBlocking(
        _ arguments: [String], writeInput: @escaping @Sendable (([UInt8]) -> Bool) -> Void
    ) throws -> PeakMemoryProcess.Result {
        try PeakMemoryProcess.run(
            CadenceBinary.url.path, arguments, environment: CadenceBinary.isolatedHistory, writeInput: writeInput)
    }

    /// Runs the binary on a thread of its own (it blocks until the command ends) and reports its peak.
    static func measure(
        _ arguments: [String], writeInput: @escaping @Sendable (([UInt8]) -> Bool) -> Void
    ) async throws -> PeakMemoryProcess.Result {
        let baseline = Self.baseline
        let result = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try measureBlocking(arguments, writeInput: writeInput) })
            }
        }
        print(
            "cadence \(arguments.joined(separator: " ")): peak \(result.peakResidentBytes / 1024) KiB, baseline "
                + "\(baseline / 1024) KiB, \(result.inputBytesAccepted) input bytes read, exit \(result.status)")
        #expect(!result.timedOut)
        #expect(baseline > 0, "the baseline run failed")
        return result
    }

    /// Writes `block` `count` times, or until the command stops reading.
    static func repeating(_ block: [UInt8], _ count: Int, after prefix: [UInt8] = []) -> @Sendable (([UInt8]) -> Bool) -> Void {
        { write in
            guard prefix.isEmpty || write(prefix) else { return }
            for _ in 0..<count where !write(block) { return }
        }
    }

    static let noNewline = repeating([UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10), 1600)  // 100 MiB
    static let dataLine = repeating(  // a 50 MiB data line
        [UInt8](repeating: UInt8(ascii: "y"), count: 64 << 10), 800, after: Array("data: ".utf8))
    static let tinyEvents = repeating(Array(String(repeating: "data: x\n\n", count: 1000).utf8), 1000)  // 10⁶ events

    /// The default limits (16 MiB), and a configured 1 MiB: the peak follows the limit.
    static let limits: [Int?] = [nil, 1 << 20]

    static func limitArguments(_ limit: Int?) -> [String] {
        limit.map { ["--max-line-bytes", String($0), "--max-event-bytes", String($0)] } ?? []
    }

    @Test("decode --events: 100 MiB with no newline stops at the line limit", arguments: limits)
    func decodeNoNewline(limit: Int?) async throws {
        let result = try await Self.measure(["decode", "--events"] + Self.limitArguments(limit) + ["-"], writeInput: Self.noNewline)
        #expect(result.status == 1)
        #expect(result.errors.contains("a line is longer than the limit of \(limit ?? (16 << 20) + 1024) bytes"))
        #expect(result.errors.contains("--max-line-bytes"))
        #expect(result.peakResidentBytes <= Self.baseline + (limit ?? 16 * Self.mib) + Self.slack)
    }

    @Test("decode --events: a 50 MiB data line stops at the event limit", arguments: limits)
    func decodeDataLine(limit: Int?) async throws {
        // Lines may be a little longer than events (the field name), as by default.
        let arguments = limit.map { ["--max-line-bytes", String($0 + 1024), "--max-event-bytes", String($0)] } ?? []
        let result = try await Self.measure(["decode", "--events"] + arguments + ["-"], writeInput: Self.dataLine)
        #expect(result.status == 1)
        #expect(result.errors.contains("an event's data is larger than the limit of \(limit ?? 16 << 20) bytes"))
        #expect(result.errors.contains("--max-event-bytes"))
        #expect(result.peakResidentBytes <= Self.baseline + (limit ?? 16 * Self.mib) + Self.slack)
    }

    @Test("decode --events: 10⁶ tiny events stream through in constant memory")
    func decodeTinyEvents() async throws {
        let result = try await Self.measure(["decode", "--events", "-"], writeInput: Self.tinyEvents)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.outputLines == 1_000_000)
        #expect(result.outputStart.hasPrefix(#"{"event":"message","data":"x","id":""}"# + "\n"))
        #expect(result.peakResidentBytes <= Self.baseline + Self.slack)
    }

    @Test("decode --dialect: 100 MiB with no newline stops at the line limit")
    func decodeDialectNoNewline() async throws {
        let result = try await Self.measure(["decode", "--dialect", "openai-chat", "-"], writeInput: Self.noNewline)
        #expect(result.status == 1)
        #expect(result.errors.contains("longer than the limit"))
        #expect(result.peakResidentBytes <= Self.baseline + 16 * Self.mib + Self.slack)
    }

    @Test("render: 100 MiB with no newline stops at --max-bytes", arguments: [nil, 1 << 20] as [Int?])
    func renderNoNewline(limit: Int?) async throws {
        let arguments = ["render", "--to", "html"] + (limit.map { ["--max-bytes", String($0)] } ?? []) + ["-"]
        let result = try await Self.measure(arguments, writeInput: Self.noNewline)
        #expect(result.status == 1)
        #expect(result.errors.contains("larger than the limit of \(limit ?? 16 << 20) bytes"))
        #expect(result.peakResidentBytes <= Self.baseline + (limit ?? 16 * Self.mib) + Self.slack)
    }

    @Test("render: 10⁶ tiny blocks are printed as they end, in constant memory")
    func renderTinyBlocks() async throws {
        let blocks = Self.repeating(Array(String(repeating: "a *b*\n\n", count: 1000).utf8), 1000)
        let result = try await Self.measure(["render", "--to", "html", "-"], writeInput: blocks)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.outputLines == 1_000_000)
        #expect(result.outputStart.hasPrefix("<p>a <em>b</em></p>\n<p>a <em>b</em></p>\n"))
        #expect(result.peakResidentBytes <= Self.baseline + Self.slack)
    }

    @Test("render prints the same in batches as the whole document at once", arguments: ["html", "ansi", "tree"])
    func renderBatches(format: String) async throws {
        // More than one 64 KiB read, so blocks are printed in several batches.
        let one = "# Title\n\nSome *text* with [a link][ref] and `code`.\n\n- one\n- two\n\n> quoted\n\n"
        let document = "[ref]: https://example.com\n\n" + String(repeating: one, count: 2000)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-render-\(UUID()).md")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let arguments = ["render", "--to", format, "--plain", "--width", "60"]
        let whole = try await CadenceBinary.run(arguments + ["--chunk-size", String(document.count), file.path])
        let streamed = try await CadenceBinary.run(arguments + [file.path])
        let chunked = try await CadenceBinary.run(arguments + ["--chunk-size", "7", file.path])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(streamed.stdout == whole.stdout)
        #expect(chunked.stdout == whole.stdout)
        #expect(whole.stdout.components(separatedBy: "Title").count == 2001)
    }

    @Test("render decodes UTF-8 split across reads as one pass would, invalid bytes included")
    func renderSplitCharacters() async throws {
        // Characters of 2, 3 and 4 bytes, and a stray continuation byte and a cut-short sequence,
        // at every offset relative to the 64 KiB reads.
        var bytes: [UInt8] = []
        while bytes.count < 200_000 { bytes += Array("é€🙂a".utf8) + [0x80, 0xE2, 0x82, UInt8(ascii: "b")] }
        let expected = String(decoding: bytes, as: UTF8.self)
        let result = try await CadenceBinary.run(["render", "--to", "tree", "-"], stdin: Data(bytes))
        let whole = try await CadenceBinary.run(["render", "--to", "tree", "-"], stdin: Data(expected.utf8))
        #expect(result.status == 0)
        #expect(result.stdout == whole.stdout)
    }
}
