import CadenceBenchmarkKit
import CadenceCore
import CadenceEngine
import Foundation

/// The persistent FTS5 corpus index on a generated folder of 10,000 markdown documents (≈ 50 MB):
/// the first index, a later start with nothing changed, and query latency, against the BM25 index
/// written by hand (`BM25Index`, the one the corpus used before FTS5) on the same passages and
/// the same queries, in the same run.
enum IndexBenchmark {
    static let options: Set<String> = ["documents", "queries"]

    static func run(cases: [String], options: Options) throws {
        let count = try options.integer("documents", default: 10_000)
        let queryCount = try options.integer("queries", default: 500)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-index-\(UUID().uuidString)")
        let folder = work.appendingPathComponent("corpus")
        let indexPath = work.appendingPathComponent("index.sqlite").path
        defer { try? FileManager.default.removeItem(at: work) }

        var random = SplitMix64(seed: 32)  // the same seed, so every run indexes the same documents
        let vocabulary = Vocabulary(random: &random)
        var bytes = 0
        for number in 0..<count {
            let file = folder.appendingPathComponent("c\(number % 20)/doc\(number).md")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = vocabulary.document(number: number, random: &random)
            bytes += text.utf8.count
            try Data(text.utf8).write(to: file)
        }
        print("index: \(count) documents, \(String(format: "%.1f", Double(bytes) / 1e6)) MB in \(folder.path)")
        let figures = ReportedFigures.shared
        figures.add("documents", count)
        figures.add("megabytes", Double(bytes) / 1e6, decimals: 1)

        func seconds<T>(_ body: () throws -> T) rethrows -> (T, Double) {
            let start = monotonicNanoseconds()
            let result = try body()
            return (result, Double(monotonicNanoseconds() - start) / 1e9)
        }
        let (_, first) = try seconds { try CorpusIndex(path: indexPath).update(from: folder) }
        let (report, unchanged) = try seconds { try CorpusIndex(path: indexPath).update(from: folder) }
        let (corpus, load) = try seconds { try Corpus(index: CorpusIndex(path: indexPath)) }
        let size = (try? FileManager.default.attributesOfItem(atPath: indexPath)[.size] as? NSNumber)??.intValue ?? 0
        print(
            "first index \(format(first)) s; unchanged re-index \(format(unchanged)) s (\(report.unchanged) unchanged,"
                + " \(report.added + report.changed + report.removed) touched); loading the corpus \(format(load)) s;"
                + " \(corpus.passageCount) passages, index file \(size / 1_000_000) MB")
        figures.add("passages", corpus.passageCount)
        figures.add("first_index_s", first)
        figures.add("unchanged_reindex_s", unchanged)
        figures.add("corpus_load_s", load)
        figures.add("index_file_mb", size / 1_000_000)

        let queries = (0..<queryCount).map { _ in vocabulary.query(random: &random) }
        let (handWritten, build) = seconds {
            BM25Index(passages: (0..<corpus.passageCount).map { corpus.indexedTerms(ofPassage: $0).map(\.stem) })
        }
        figures.add("bm25_build_s", build)
        print("hand-written BM25 index built from the loaded passages in \(format(build)) s (at every start, before)")

        for query in queries.prefix(20) { _ = corpus.search(query, limit: 10) }
        var ftsTimes: [Int64] = []
        var exhaustiveTimes: [Int64] = []
        var bm25Times: [Int64] = []
        var overlap = 0.0
        var exhaustiveOverlap = 0.0
        var cpuTimes: (fts: [Int64], exhaustive: [Int64], bm25: [Int64]) = ([], [], [])
        for query in queries {
            var (start, cpu) = (monotonicNanoseconds(), threadCPUNanoseconds())
            let hits = corpus.search(query, limit: 10)
            ftsTimes.append(monotonicNanoseconds() - start)
            cpuTimes.fts.append(threadCPUNanoseconds() - cpu)
            (start, cpu) = (monotonicNanoseconds(), threadCPUNanoseconds())
            let exhaustive = corpus.exhaustiveSearch(query, limit: 10)
            exhaustiveTimes.append(monotonicNanoseconds() - start)
            cpuTimes.exhaustive.append(threadCPUNanoseconds() - cpu)
            (start, cpu) = (monotonicNanoseconds(), threadCPUNanoseconds())
            let ranked = search(handWritten, query, limit: 10)
            bm25Times.append(monotonicNanoseconds() - start)
            cpuTimes.bm25.append(threadCPUNanoseconds() - cpu)
            let fts = hits.map(\.passageIndex)
            overlap += Self.overlap(fts, ranked)
            exhaustiveOverlap += Self.overlap(fts, exhaustive)
        }
        let (fts, bm25) = (Percentiles(ftsTimes), Percentiles(bm25Times))
        let exhaustive = Percentiles(exhaustiveTimes)
        let cpu = (fts: Percentiles(cpuTimes.fts), exhaustive: Percentiles(cpuTimes.exhaustive), bm25: Percentiles(cpuTimes.bm25))
        func line(_ name: String, _ wall: Percentiles, _ cpu: Percentiles) -> String {
            "  \(name.padding(toLength: 36, withPad: " ", startingAt: 0))\(format(wall.milliseconds(at: 0.5)))   \(format(wall.milliseconds(at: 0.99)))"
                + "    \(format(cpu.milliseconds(at: 0.5)))   \(format(cpu.milliseconds(at: 0.99)))"
        }
        print("queries (\(queryCount), 2–4 words, top 10)      p50 ms   p99 ms    CPU p50  CPU p99")
        print(line("FTS5 bm25()", fts, cpu.fts))
        print(line("FTS5 bm25(), every match scored", exhaustive, cpu.exhaustive))
        print(line("hand-written BM25 (in memory)", bm25, cpu.bm25))
        print("  top-10 overlap with every match scored: \(String(format: "%.1f", 100 * exhaustiveOverlap / Double(queryCount))) %")
        print("  top-10 overlap with the hand-written index: \(String(format: "%.0f", 100 * overlap / Double(queryCount))) %")
        figures.add("query_p50_ms", fts.milliseconds(at: 0.5))
        figures.add("query_p99_ms", fts.milliseconds(at: 0.99))
        figures.add("bm25_query_p50_ms", bm25.milliseconds(at: 0.5))
        figures.add("bm25_query_p99_ms", bm25.milliseconds(at: 0.99))
        figures.add("exhaustive_query_p50_ms", exhaustive.milliseconds(at: 0.5))
        figures.add("exhaustive_query_p99_ms", exhaustive.milliseconds(at: 0.99))
        figures.add("query_cpu_p50_ms", cpu.fts.milliseconds(at: 0.5))
        figures.add("query_cpu_p99_ms", cpu.fts.milliseconds(at: 0.99))
        figures.add("exhaustive_query_cpu_p99_ms", cpu.exhaustive.milliseconds(at: 0.99))
        figures.add("bm25_query_cpu_p99_ms", cpu.bm25.milliseconds(at: 0.99))
        figures.add("load_average", MachineLoad.loadAverage(), decimals: 2)
        figures.add("top10_overlap", overlap / Double(queryCount))
        figures.add("top10_overlap_exhaustive", exhaustiveOverlap / Double(queryCount))
    }

    /// The hand-written index's search as `Corpus.search` did it before FTS5.
    static func search(_ index: BM25Index, _ query: String, limit: Int) -> [Int] {
        var weights: [String: Double] = [:]
        for stem in Tokenizer.stems(in: query) { weights[stem] = 1 }
        return index.scores(for: weights).filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map(\.key)
    }

    /// The share of two top-10 lists they have in common (1 when both are empty).
    static func overlap(_ a: [Int], _ b: [Int]) -> Double {
        a.isEmpty && b.isEmpty ? 1 : Double(Set(a).intersection(b).count) / Double(max(a.count, b.count))
    }

    static func format(_ value: Double) -> String { String(format: "%6.3f", value) }

    /// Words with a Zipf-like frequency: a few common, most rare, as in prose.
    struct Vocabulary {
        let words: [String]

        init(random: inout SplitMix64) {
            let syllables = ["ka", "lo", "mi", "tre", "sen", "dor", "ul", "vi", "pra", "nes", "to", "gar", "bel", "qui"]
            var words = Set<String>()
            while words.count < 20_000 {
                let length = 2 + Int(random.next() % 3)
                words.insert((0..<length).map { _ in syllables[Int(random.next() % UInt64(syllables.count))] }.joined())
            }
            self.words = words.sorted()
        }

        func word(_ random: inout SplitMix64) -> String {
            // Rank ∝ u²: the first words are by far the most frequent.
            let u = Double(random.next() % 1_000_000) / 1_000_000
            return words[Int(u * u * u * Double(words.count - 1))]
        }

        func sentence(_ random: inout SplitMix64, words count: Int) -> String {
            (0..<count).map { _ in word(&random) }.joined(separator: " ") + "."
        }

        /// About 5 KB: a title, three sections of three paragraphs.
        func document(number: Int, random: inout SplitMix64) -> String {
            var text = "# \(sentence(&random, words: 4).dropLast()) \(number)\n\n"
            for _ in 0..<3 {
                text += "## \(sentence(&random, words: 3).dropLast())\n\n"
                for _ in 0..<3 {
                    text += (0..<5).map { _ in sentence(&random, words: 10) }.joined(separator: " ") + "\n\n"
                }
            }
            return text
        }

        func query(random: inout SplitMix64) -> String {
            (0..<(2 + Int(random.next() % 3))).map { _ in word(&random) }.joined(separator: " ")
        }
    }
}
