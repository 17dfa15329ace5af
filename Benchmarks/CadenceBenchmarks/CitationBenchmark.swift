import CadenceBenchmarkKit
import CadenceResearch
import CadenceTesting

/// The streaming citation processor on a long answer in 4-character chunks: against a pass that
/// only copies each chunk's characters (what any streaming text filter must do), and on an
/// answer ten times longer, to show the work is linear.
enum CitationBenchmark {
    static let chunkSize = 4
    static let minimumBytes = 150_000

    static func run(cases requested: [String]) {
        guard requested.isEmpty else {
            print("the citations benchmark has no cases")
            return
        }
        // Ten sources: the answer's citations [11] and [12] are dropped, the rest checked.
        let sources = MarkdownAnswerGenerator.sentences.map { $0 + ". More words about the topic of this source." }
        let short = MarkdownAnswerGenerator.answer(minimumBytes: minimumBytes)
        let long = MarkdownAnswerGenerator.answer(minimumBytes: minimumBytes * 10)
        let shortChunks = short.chunks(ofCharacters: chunkSize)
        let longChunks = long.chunks(ofCharacters: chunkSize)
        print(
            "Citations, \(short.utf8.count) bytes in \(shortChunks.count) chunks of \(chunkSize) characters, "
                + "\(sources.count) sources, best of \(Stopwatch().repetitions) runs")

        let copy = Stopwatch().best { copyBytes(shortChunks) }
        let processed = Stopwatch().best { process(shortChunks, sources: sources) }
        let processedLong = Stopwatch(repetitions: 3).best { process(longChunks, sources: sources) }
        let megabytes = Double(short.utf8.count) / 1_000_000
        print(
            "copy the characters (baseline)   " + padded(formatted(copy.seconds * 1000, decimals: 2), 9) + " ms  "
                + padded(formatted(megabytes / copy.seconds, decimals: 1), 7) + " MB/s")
        print(
            "citation processor               " + padded(formatted(processed.seconds * 1000, decimals: 2), 9) + " ms  "
                + padded(formatted(megabytes / processed.seconds, decimals: 1), 7) + " MB/s  "
                + formatted(processed.seconds / copy.seconds, decimals: 2) + " × the copy, "
                + "\(processed.result.checks) checks, \(processed.result.dropped) dropped")
        let lengthRatio = Double(long.utf8.count) / Double(short.utf8.count)
        print(
            "citation processor, 10× answer   " + padded(formatted(processedLong.seconds * 1000, decimals: 2), 9)
                + " ms  " + formatted(processedLong.seconds / processed.seconds, decimals: 2) + " × the time for "
                + formatted(lengthRatio, decimals: 2) + " × the text (linear: about equal)")
        let figures = ReportedFigures.shared
        figures.add("copy_mb_s", megabytes / copy.seconds, decimals: 1)
        figures.add("processor_mb_s", megabytes / processed.seconds, decimals: 1)
        figures.add("processor_vs_copy", processed.seconds / copy.seconds)
        figures.add("checks", processed.result.checks)
        figures.add("dropped", processed.result.dropped)
        figures.add("long_time_ratio", processedLong.seconds / processed.seconds)
        figures.add("long_length_ratio", lengthRatio)
    }

    /// Passes each chunk's bytes through a buffer into a new string: the processor's shape, minus its work.
    static func copyBytes(_ chunks: [String]) -> Int {
        var out: [UInt8] = []
        var total = 0
        for chunk in chunks {
            out.append(contentsOf: chunk.utf8)
            total &+= String(decoding: out, as: UTF8.self).utf8.count
            out.removeAll(keepingCapacity: true)
        }
        return total
    }

    static func process(_ chunks: [String], sources: [String]) -> (checks: Int, dropped: Int) {
        var processor = CitationProcessor(sources: sources)
        var total = 0
        for chunk in chunks { total &+= processor.feed(chunk).utf8.count }
        total &+= processor.finish().utf8.count
        return (processor.checks.count + (total == 0 ? 1 : 0), processor.dropped.count)
    }
}
