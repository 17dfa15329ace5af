import Foundation

extension CorpusIndex {
    /// One passage a search matched: its rowid, its `bm25()` score (positive, higher is better) and
    /// FTS5's snippet of its text around the words matched.
    typealias Match = (id: Int64, score: Double, snippet: String)

    /// FTS5's `bm25()` term-frequency saturation, k₁ (its default, which Cadence keeps).
    static let bm25K1 = 1.2

    /// Passages worth not scoring: a query splits off its common words only when they match at
    /// least this many passages, since the split costs two or three statements instead of one.
    static let splitThreshold = 1_000

    /// The best `limit` passages matching any of `words`, exactly as one `bm25()` query of all of
    /// them ranks them, without scoring every passage that only a common word is in.
    ///
    /// FTS5 scores every passage a query matches before it sorts and applies the limit, so a query
    /// holding a word found in a third of the passages scores a third of the corpus. But a word's
    /// share of a passage's score is below `idf × (k₁ + 1)` however often it occurs, and a common
    /// word's IDF is small. So the words are split, by how many passages hold each, into rare ones
    /// and common ones whose scores together stay below a single rare word's IDF, and the passages
    /// holding a rare word are scored with every word (`(rare) AND (common)`, then `(rare) NOT
    /// (common)`: the words of the `NOT` side add nothing to a passage that lacks them, so each score
    /// is the one the whole query gives). When the `limit`-th of those scores at least the common
    /// words' bound, no passage holding only common words can rank above it; otherwise those
    /// passages are scored too (`(common) NOT (rare)`) and merged, so the result is exact either way.
    ///
    /// - Parameters:
    ///   - words: the words to search for; only the first `maximumQueryWords` distinct ones count.
    ///   - collection: the collection to search within, or nil for all.
    ///   - passageCount: how many passages the index holds (`bm25()`'s N).
    func bestMatches(
        anyOf words: [String], in collection: String?, limit: Int, passageCount: Int
    ) throws(CorpusError) -> [Match] {
        var seen = Set<String>()
        let words = Array(words.filter { !$0.isEmpty && seen.insert($0).inserted }.prefix(Self.maximumQueryWords))
        guard let all = Self.matchExpression(anyOf: words), limit > 0 else { return [] }
        guard let (rare, common) = split(words, limit: limit, passageCount: passageCount),
            let rareWords = Self.matchExpression(anyOf: rare), let commonWords = Self.matchExpression(anyOf: common)
        else { return try matches(all, in: collection, limit: limit, rows: rows(words)) }

        var found =
            try matches("(\(rareWords)) AND (\(commonWords))", in: collection, limit: limit, rows: rows(rare))
            + matches("(\(rareWords)) NOT (\(commonWords))", in: collection, limit: limit, rows: rows(rare))
        found.sort(by: Self.ranksBefore)
        let bound = common.reduce(0) { $0 + bm25IDF(ofWord: $1, passageCount: passageCount) } * (Self.bm25K1 + 1)
        if found.count >= limit && found[limit - 1].score >= bound {
            return Array(found.prefix(limit))
        }
        found += try matches("(\(commonWords)) NOT (\(rareWords))", in: collection, limit: limit, rows: rows(common))
        return Array(found.sorted(by: Self.ranksBefore).prefix(limit))
    }

    /// The exhaustive ranking `bestMatches(anyOf:in:limit:passageCount:)` reproduces: one `bm25()`
    /// query of all the words, scoring every passage any of them is in (and sorted by FTS5).
    func allMatches(anyOf words: [String], in collection: String?, limit: Int) throws(CorpusError) -> [Match] {
        guard let all = Self.matchExpression(anyOf: words), limit > 0 else { return [] }
        return try matches(all, in: collection, limit: limit)
    }

    /// How many passages hold any of `words`, at most: the sum of their document frequencies.
    private func rows(_ words: [String]) -> Int {
        words.reduce(0) { $0 + documentFrequency(ofWord: $1) }
    }

    /// Higher score first, then lower rowid.
    static func ranksBefore(_ a: Match, _ b: Match) -> Bool {
        a.score != b.score ? a.score > b.score : a.id < b.id
    }

    /// The IDF FTS5's `bm25()` gives `word`: `ln((N − n + 0.5) / (n + 0.5))` for a word in n of N
    /// passages, or 10⁻⁶ when that is not positive (a word in at least half of the passages).
    func bm25IDF(ofWord word: String, passageCount: Int) -> Double {
        let frequency = Double(documentFrequency(ofWord: word))
        let idf = log((Double(passageCount) - frequency + 0.5) / (frequency + 0.5))
        return idf > 0 ? idf : 1e-6
    }

    /// `words` as rare and common ones: the fewest rarest words that match at least `limit`
    /// passages together (so that they may fill the list) and whose least informative word's IDF
    /// outweighs the bound on all the remaining (common) words' scores. Nil when no split
    /// qualifies or the common words match too few passages to be worth leaving out.
    func split(_ words: [String], limit: Int, passageCount: Int) -> (rare: [String], common: [String])? {
        guard words.count > 1 else { return nil }
        let frequencies = words.map { (word: $0, count: documentFrequency(ofWord: $0)) }
            .sorted { $0.count != $1.count ? $0.count < $1.count : $0.word < $1.word }
        let idfs = frequencies.map { bm25IDF(ofWord: $0.word, passageCount: passageCount) }
        var rarePassages = 0
        for end in 1..<frequencies.count {
            rarePassages += frequencies[end - 1].count
            let commonBound = idfs[end...].reduce(0, +) * (Self.bm25K1 + 1)
            guard rarePassages >= limit, idfs[end - 1] >= commonBound else { continue }
            let commonPassages = frequencies[end...].reduce(0) { $0 + $1.count }
            guard commonPassages >= Self.splitThreshold else { return nil }
            return (frequencies[..<end].map(\.word), frequencies[end...].map(\.word))
        }
        return nil
    }
}
