import Foundation

/// An inverted index over passages, ranked with Okapi BM25.
///
/// Each passage is a bag of stems. A query is a set of stems with weights (1 for the user's own
/// words, less for context and expansion terms); a passage's score is the weighted sum, over
/// the query's stems, of
///
///     idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / averageLength))
///
/// with `idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))`, which stays positive for common terms.
///
/// ```swift
/// let index = BM25Index(passages: [["sse", "retry"], ["websocket"]])
/// index.scores(for: ["retry": 1])  // [0: 0.61]: ln 2 · 2.2 / (1 + 1.5)
/// ```
struct BM25Index: Sendable {
    static let k1 = 1.2
    static let b = 0.75

    private struct Posting: Sendable {
        var passage: Int
        var frequency: Int
    }

    private var termIDs: [String: Int] = [:]
    private var postings: [[Posting]] = []
    private let lengths: [Int]
    private let averageLength: Double

    /// The number of passages indexed.
    var passageCount: Int { lengths.count }

    /// Indexes passages given as lists of stems.
    init(passages: [[String]]) {
        self.init(frequencies: passages.map { stems in stems.reduce(into: [:]) { $0[$1, default: 0] += 1 } })
    }

    /// Indexes passages given as their stems' frequencies.
    init(frequencies: [[String: Int]]) {
        lengths = frequencies.map { $0.values.reduce(0, +) }
        let total = lengths.reduce(0, +)
        averageLength = frequencies.isEmpty ? 0 : max(1, Double(total) / Double(frequencies.count))
        for (passage, stems) in frequencies.enumerated() {
            for (stem, frequency) in stems {
                let id: Int
                if let existing = termIDs[stem] {
                    id = existing
                } else {
                    id = postings.count
                    termIDs[stem] = id
                    postings.append([])
                }
                postings[id].append(Posting(passage: passage, frequency: frequency))
            }
        }
    }

    /// How many passages contain `stem`.
    func documentFrequency(of stem: String) -> Int {
        termIDs[stem].map { postings[$0].count } ?? 0
    }

    /// The inverse document frequency of `stem`; 0 for a stem no passage contains.
    func idf(of stem: String) -> Double {
        let df = documentFrequency(of: stem)
        guard df > 0 else { return 0 }
        let n = Double(passageCount)
        return log(1 + (n - Double(df) + 0.5) / (Double(df) + 0.5))
    }

    /// The BM25 score of every passage that contains at least one of the weighted stems.
    func scores(for query: [String: Double]) -> [Int: Double] {
        var scores: [Int: Double] = [:]
        for (stem, weight) in query where weight > 0 {
            guard let id = termIDs[stem] else { continue }
            let idf = self.idf(of: stem) * weight
            for posting in postings[id] {
                let tf = Double(posting.frequency)
                let norm = Self.k1 * (1 - Self.b + Self.b * Double(lengths[posting.passage]) / averageLength)
                scores[posting.passage, default: 0] += idf * tf * (Self.k1 + 1) / (tf + norm)
            }
        }
        return scores
    }
}
