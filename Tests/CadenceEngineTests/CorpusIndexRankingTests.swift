import Testing

@testable import CadenceEngine

/// The index's best matches leave out the passages only common words are in, yet rank exactly as
/// one `bm25()` query of every word, scoring every passage, does.
@Suite struct CorpusIndexRankingTests {
    /// 1,200 one-paragraph documents: `cobalt` in a third (some short ones repeat it), `granite` in
    /// more than half, `zephyr` in 20 passages of the usual length, `quokka` in 20 very long ones.
    static let index: CorpusIndex = {
        let documents = (0..<1_200).map { number in
            var words = (0..<8).map { "w\((number * 7 + $0) % 50)x" }
            if number % 60 == 2 { words += (0..<200).map { "w\((number + $0) % 50)x" } + ["quokka"] }
            if number % 60 == 1 { words.append("zephyr") }
            if number % 3 == 0 {
                // Short passages saying cobalt three times: the best that hold no rare word.
                words = (30..<45).contains(number % 60) ? ["cobalt", "cobalt", "cobalt"] : words + ["cobalt"]
            }
            if number % 12 < 7 { words.append("granite") }
            return Document(collection: "c", path: "d\(number).md", text: "# Item \(number)\n\n" + words.joined(separator: " ") + ".")
        }
        let index = try! CorpusIndex()
        try! index.replace(with: documents)
        return index
    }()

    static let passages = 1_200

    @Test(arguments: [["zephyr", "cobalt", "granite"], ["quokka", "cobalt", "granite"], ["granite", "cobalt"], ["zephyr", "quokka"]])
    func theBestMatchesAreTheExhaustiveRanking(words: [String]) throws {
        let index = Self.index
        #expect(try index.counts().passages == Self.passages)
        for limit in [1, 10, 40] {
            let best = try index.bestMatches(anyOf: words, in: nil, limit: limit, passageCount: Self.passages)
            let all = try index.allMatches(anyOf: words, in: nil, limit: limit).sorted(by: CorpusIndex.ranksBefore)
            #expect(best.map(\.id) == all.map(\.id), "\(words), top \(limit)")
            #expect(zip(best, all).allSatisfy { abs($0.score - $1.score) < 1e-9 }, "\(words), top \(limit)")
            #expect(best.count == limit)
        }
    }

    @Test func theRareWordsAreSplitFromTheCommonOnes() throws {
        let index = Self.index
        let split = try #require(index.split(["granite", "zephyr", "cobalt"], limit: 10, passageCount: Self.passages))
        #expect(split.rare == ["zephyr"] && split.common == ["cobalt", "granite"])
        // The long passages' rare word scores below the common words' bound, so the passages that
        // hold only common words are scored too: the best of them outrank the long ones.
        let best = try index.bestMatches(anyOf: ["quokka", "cobalt", "granite"], in: nil, limit: 10, passageCount: Self.passages)
        let withQuokka = try index.matches("\"quokka\"", in: nil, limit: 40).map(\.id)
        #expect(best.contains { !withQuokka.contains($0.id) })
        // Nothing to leave out: the common words match too few passages, or no word is rare enough.
        #expect(index.split(["zephyr", "quokka"], limit: 10, passageCount: Self.passages) == nil)
        #expect(index.split(["granite", "cobalt"], limit: 10, passageCount: Self.passages) == nil)
    }

    @Test func manyMatchesAreSortedBySQLiteWithTheSameScoresAndSnippets() throws {
        let index = Self.index
        // `granite` or `cobalt`: 1,100 passages, past the rows FTS5 is left to sort.
        #expect(index.documentFrequency(ofWord: "granite") + index.documentFrequency(ofWord: "cobalt") > CorpusIndex.topSortRows)
        let expression = try #require(CorpusIndex.matchExpression(anyOf: ["granite", "cobalt"]))
        let bySQLite = try index.matches(expression, in: nil, limit: 10, rows: 1_100)
        let byFTS5 = try index.matches(expression, in: nil, limit: 10, rows: 0)
        #expect(bySQLite.map(\.id) == byFTS5.map(\.id))
        #expect(zip(bySQLite, byFTS5).allSatisfy { $0.score == $1.score && $0.snippet == $1.snippet && !$0.snippet.isEmpty })
        #expect(try index.matches(expression, in: "c", limit: 3, rows: 1_100).map(\.id) == Array(byFTS5.prefix(3)).map(\.id))
        #expect(try index.matches(expression, in: "elsewhere", limit: 3, rows: 1_100).isEmpty)
    }
}
