import CadenceBenchmarkKit
import CadenceMarkdown
import CadenceTesting

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The incremental markdown parser on a ≥ 150 KB answer: one full parse, streaming in 4-character
/// chunks (with and without a tail snapshot per chunk), re-parsing everything per chunk (sampled),
/// and the `cmark-gfm` process on the same input.
enum MarkdownBenchmark {
    static let chunkSize = 4
    static let minimumBytes = 150_000
    static let cases = ["parse", "stream", "reparse", "cmark", "html", "tail", "floor"]

    static func run(cases requested: [String]) {
        if let unknown = requested.first(where: { !cases.contains($0) }) {
            print("unknown markdown case \(unknown); known: \(cases.joined(separator: ", "))")
            return
        }
        let text = MarkdownAnswerGenerator.answer(minimumBytes: minimumBytes)
        let bytes = Double(text.utf8.count)
        let chunks = text.chunks(ofCharacters: chunkSize)
        let wants = { (name: String) in requested.isEmpty || requested.contains(name) }
        print(
            "Markdown, \(Int(bytes)) bytes, \(chunks.count) chunks of \(chunkSize) characters, best of \(Stopwatch().repetitions) runs"
        )

        // Streaming is measured in the default mode (citations on), as answers are shown.
        let full = Stopwatch().best { MarkdownParser().parse(text).blocks.count }
        let strict = Stopwatch().best { MarkdownParser(options: .gfm).parse(text).blocks.count }
        let megabytes = bytes / 1_000_000
        print(
            "full parse                       " + padded(formatted(full.seconds * 1000, decimals: 2), 9) + " ms  "
                + padded(formatted(megabytes / full.seconds, decimals: 1), 7) + " MB/s")
        print(
            "full parse, strict (gfm)         " + padded(formatted(strict.seconds * 1000, decimals: 2), 9) + " ms  "
                + padded(formatted(megabytes / strict.seconds, decimals: 1), 7) + " MB/s")
        if wants("stream") {
            let appendOnly = Stopwatch(repetitions: 3).best { () -> Int in
                var document = MarkdownDocument()
                for chunk in chunks { document.append(chunk) }
                return document.finish().blocks.count
            }
            print(
                "stream, append only              " + padded(formatted(appendOnly.seconds * 1000, decimals: 2), 9)
                    + " ms  " + padded(formatted(appendOnly.seconds / full.seconds, decimals: 2), 7)
                    + " × full parse (goal ≤ 3×)")
            ReportedFigures.shared.add("append_ratio", appendOnly.seconds / full.seconds)
            let withTail = Stopwatch(repetitions: 3).best { streamReadingTail(chunks) }
            print(
                "stream, tail snapshot per chunk  " + padded(formatted(withTail.seconds * 1000, decimals: 2), 9)
                    + " ms  " + padded(formatted(withTail.seconds / full.seconds, decimals: 2), 7) + " × full parse ("
                    + formatted(withTail.seconds / Double(chunks.count) * 1e6, decimals: 1) + " µs per chunk)")
            ReportedFigures.shared.add("tail_snapshot_ratio", withTail.seconds / full.seconds)
            if wants("reparse") {
                // Re-parsing the whole prefix after every chunk is quadratic: time every 100th prefix, scale by 100.
                let step = 100
                let clock = ContinuousClock()
                var prefix = ""
                var sampled = Duration.zero
                for (index, chunk) in chunks.enumerated() {
                    prefix += chunk
                    if index % step == 0 {
                        let start = clock.now
                        _ = MarkdownParser().parse(prefix).blocks.count
                        sampled += clock.now - start
                    }
                }
                let estimate = sampled.seconds * Double(step)
                print(
                    "re-parse per chunk (estimated)   " + padded(formatted(estimate * 1000, decimals: 0), 9) + " ms  "
                        + padded(formatted(estimate / full.seconds, decimals: 0), 7) + " × full parse; streaming is "
                        + formatted(estimate / appendOnly.seconds, decimals: 0) + "× faster")
            }
        }
        if wants("cmark") { compareWithCMark(text) }
        if requested.contains("html") { renderHTML(text) }
        if requested.contains("tail") { profileTail(chunks, full: full.seconds) }
        if requested.contains("floor") { measureFloor(chunks, full: full.seconds) }
    }

    /// What any tail read that returns a new `[Block]` costs at least: each chunk only appended to
    /// the last text of a one-paragraph tail, moved out of the last tail and back in place (no
    /// parsing, no copy). Only when asked for by name: the lower bound of `tail_snapshot_ratio`'s
    /// reads, reported as `tail_floor_ratio` (reads only, against one full parse).
    static func measureFloor(_ chunks: [String], full: Double) {
        final class Holder { var blocks: [Block] = [] }
        let holder = Holder()
        let floor = Stopwatch(repetitions: 7).best { () -> Int in
            var total = 0
            holder.blocks = [.paragraph([.strong([.text("work")]), .text("")])]
            for chunk in chunks {
                var blocks: [Block] = []
                swap(&blocks, &holder.blocks)
                if case .paragraph(var inlines)? = blocks.popLast(), case .text(var last)? = inlines.popLast() {
                    last += chunk
                    inlines.append(.text(last))
                    blocks.append(.paragraph(inlines))
                }
                holder.blocks = blocks
                total &+= holder.blocks.count
            }
            return total
        }
        print(
            "tail reads, floor (append only)  " + padded(formatted(floor.seconds * 1000, decimals: 2), 9) + " ms  "
                + padded(formatted(floor.seconds / full, decimals: 2), 7) + " × full parse ("
                + formatted(floor.seconds / Double(chunks.count) * 1e9, decimals: 0) + " ns per read)")
        ReportedFigures.shared.add("tail_floor_ratio", floor.seconds / full)
    }

    /// Streams `chunks` into a document, reading its tail after each one, as a UI would; returns the
    /// blocks seen so that the work cannot be optimised away.
    static func streamReadingTail(_ chunks: [String]) -> Int {
        var document = MarkdownDocument()
        var blocks = 0
        for chunk in chunks {
            document.append(chunk)
            blocks &+= document.tail.count
        }
        return blocks &+ document.finish().blocks.count
    }

    /// The tail snapshot per chunk alone, 100 times over (for profiling). Only when asked for by name.
    static func profileTail(_ chunks: [String], full: Double) {
        let runs = 100
        let clock = ContinuousClock()
        let start = clock.now
        var blocks = 0
        for _ in 0..<runs { blocks &+= streamReadingTail(chunks) }
        let each = (clock.now - start).seconds / Double(runs)
        print(
            "stream, tail snapshot per chunk  " + padded(formatted(each * 1000, decimals: 2), 9) + " ms  "
                + padded(formatted(each / full, decimals: 2), 7) + " × full parse, mean of \(runs) (\(blocks) blocks)")
    }

    /// Our strict parse + HTML render alone, on the same 3 MB input as `cmark` (for profiling, and
    /// where `cmark-gfm` is not installed). Only when asked for by name.
    static func renderHTML(_ answer: String) {
        let text = String(repeating: answer, count: 20)
        let megabytes = Double(text.utf8.count) / 1_000_000
        let ours = Stopwatch(repetitions: 20).best {
            HTMLRenderer().render(MarkdownParser(options: .gfm).parse(text)).utf8.count
        }
        print(
            "ours, strict parse+render        " + padded(formatted(ours.seconds * 1000, decimals: 1), 9) + " ms  "
                + padded(formatted(megabytes / ours.seconds, decimals: 1), 7) + " MB/s")
    }

    /// Times the `cmark-gfm` process against our parse + HTML render, in-process, on the answer
    /// repeated 20 times (about 3 MB). The process's start-up (the same command on an empty input)
    /// is subtracted from its time, so that only its parse and render are compared. Five rounds,
    /// each the best of three of the three timings, taken alternately so that a change in the
    /// machine's load (it is shared) falls on all of them; the ratio reported is the rounds' median.
    static func compareWithCMark(_ answer: String) {
        guard access("/usr/bin/cmark-gfm", X_OK) == 0 else {
            print("cmark-gfm: not installed (apt-get install cmark-gfm)")
            return
        }
        let text = String(repeating: answer, count: 20)
        let (path, emptyPath) = ("/tmp/cadence-markdown-benchmark.md", "/tmp/cadence-markdown-benchmark-empty.md")
        guard write(text, to: path), write("", to: emptyPath) else {
            print("cmark-gfm: cannot write \(path)")
            return
        }
        let megabytes = Double(text.utf8.count) / 1_000_000
        let command = "/usr/bin/cmark-gfm -e table -e strikethrough -e autolink -e tagfilter -e tasklist"
        var rounds: [(startup: Double, cmark: Double, ours: Double)] = []
        for _ in 0..<5 {
            let (startup, cmark) = Stopwatch(repetitions: 3).bestOfEach(
                { system("\(command) < \(emptyPath) > /dev/null") }, { system("\(command) < \(path) > /dev/null") })
            let ours = Stopwatch(repetitions: 3).best {
                HTMLRenderer().render(MarkdownParser(options: .gfm).parse(text)).utf8.count
            }
            rounds.append((startup.seconds, cmark.seconds, ours.seconds))
        }
        let ratio = { (round: (startup: Double, cmark: Double, ours: Double)) in (round.cmark - round.startup) / round.ours }
        let ordered = rounds.sorted { ratio($0) < ratio($1) }
        let (median, ratios) = (ordered[2], ordered.map(ratio))
        print(
            "cmark-gfm process, " + formatted(megabytes, decimals: 1) + " MB      "
                + padded(formatted(median.cmark * 1000, decimals: 1), 9) + " ms, of which start-up "
                + formatted(median.startup * 1000, decimals: 1) + " ms: "
                + formatted(megabytes / (median.cmark - median.startup), decimals: 1) + " MB/s parse+render")
        print(
            "ours, strict parse+render        " + padded(formatted(median.ours * 1000, decimals: 1), 9) + " ms  "
                + padded(formatted(megabytes / median.ours, decimals: 1), 7) + " MB/s → "
                + formatted(ratios[2], decimals: 2) + "× cmark-gfm, median of 5 rounds ("
                + ratios.map { formatted($0, decimals: 2) }.joined(separator: ", ") + "; goal ≥ 1.5×)")
        ReportedFigures.shared.add("vs_cmark_gfm", ratios[2])
        ReportedFigures.shared.add("cmark_startup_ms", median.startup * 1000)
    }

    static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        return fputs(text, file) >= 0
    }
}
