import Foundation

/// A collection of documents searched through a ``CorpusIndex`` (SQLite FTS5, ranked with BM25)
/// over passages.
///
/// Documents are split into passages of about a paragraph or two (never across a section
/// heading), each indexed with its document's title and its section heading. The index stems
/// words (Porter) and folds diacritics; queries are split into words, stop words dropped, and
/// each word quoted, so no query text is read as FTS5 syntax.
///
/// ```swift
/// let corpus = try Corpus.bundled()   // or try Corpus(directory: URL(fileURLWithPath: "notes"), indexPath: "notes.sqlite")
/// for hit in corpus.search("How does Cadence resume a stream?", limit: 3) {
///     print(hit.document.title, hit.heading ?? "", hit.score)
/// }
/// ```
public struct Corpus: Sendable {
    /// The documents, in the order given (when loaded from a folder: its own files, then each subfolder by path).
    public let documents: [Document]
    /// The collection names, in the order their first document appears.
    public let collections: [String]
    /// The index the passages are searched in.
    public let index: CorpusIndex
    let passages: [Passage]
    /// The passage of each rowid in the index.
    private let passagePositions: [Int64: Int]

    /// Indexes `documents` in memory.
    ///
    /// - Throws: ``CorpusError`` with code `.index` if an index in memory cannot be made.
    public init(documents: [Document]) throws(CorpusError) {
        let index = try CorpusIndex()
        try index.replace(with: documents)
        try self.init(index: index)
    }

    /// The documents and passages `index` holds, searched in it.
    ///
    /// - Throws: ``CorpusError`` with code `.index` if the index cannot be read.
    public init(index: CorpusIndex) throws(CorpusError) {
        let (documents, passages, ids) = try index.load()
        self.index = index
        self.documents = documents
        var collections: [String] = []
        var seen = Set<String>()
        for document in documents where seen.insert(document.collection).inserted {
            collections.append(document.collection)
        }
        self.collections = collections
        self.passages = passages
        passagePositions = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }

    /// The number of passages the documents were split into.
    public var passageCount: Int { passages.count }

    /// The `limit` best passages for `query`, best first. Passages that match no query term are
    /// never returned, so a query of only stop words, or of words the corpus lacks, returns `[]`.
    /// Only the first 64 distinct words of a query are searched for.
    public func search(_ query: String, limit: Int) -> [SearchHit] {
        let (weights, words) = Self.weighted(query)
        return search(weights, words: words, in: nil, limit: limit)
    }

    /// The positions of the `limit` passages that one `bm25()` query of all of `query`'s words,
    /// scoring every passage any of them is in, ranks best: the ranking ``search(_:limit:)``
    /// reproduces without scoring them all, for benchmarks and tests to compare with.
    package func exhaustiveSearch(_ query: String, limit: Int) -> [Int] {
        let (weights, words) = Self.weighted(query)
        let terms = weights.keys.sorted().map { words[$0] ?? $0 }
        let matches = (try? index.allMatches(anyOf: terms, in: nil, limit: limit)) ?? []
        return matches.compactMap { match in passagePositions[match.id].map { (position: $0, score: match.score) } }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.position < $1.position }
            .map(\.position)
    }

    /// Each distinct stem of `query` at weight 1, with the word it was written as.
    private static func weighted(_ query: String) -> (weights: [String: Double], words: [String: String]) {
        var weights: [String: Double] = [:]
        var words: [String: String] = [:]
        for term in Tokenizer.terms(in: query) where weights[term.stem] == nil {
            weights[term.stem] = 1
            words[term.stem] = term.word
        }
        return (weights, words)
    }

    /// The best passages for a weighted set of stems, optionally within one collection. `words`
    /// gives a word for each stem, which is what the index is asked for (it stems words its own
    /// way); a stem without one is searched as written.
    ///
    /// FTS5 weighs the terms of one query alike, so each group of stems of the same weight is one
    /// query, and a passage's score is the weighted sum of its groups' scores (BM25 is a sum over
    /// terms). With one weight, as in most queries, that is exactly the `limit` best; with several,
    /// the sum is taken over each group's `limit × 10` best.
    func search(
        _ query: [String: Double], words: [String: String], in collection: String?, limit: Int
    ) -> [SearchHit] {
        guard limit > 0 else { return [] }
        let groups = Dictionary(grouping: query.filter { $0.value > 0 }, by: \.value)
        var scores: [Int: Double] = [:]
        var snippets: [Int: String] = [:]
        // Groups from the heaviest, so that a passage's snippet shows the words that weigh most.
        for (weight, stems) in groups.sorted(by: { $0.key > $1.key }) {
            let terms = stems.map(\.key).sorted().map { words[$0] ?? $0 }
            guard let matches = matches(anyOf: terms, in: collection, limit: groups.count == 1 ? limit : limit * 10)
            else { continue }
            for match in matches {
                guard let position = passagePositions[match.id] else { continue }
                scores[position, default: 0] += match.score * weight
                if snippets[position] == nil { snippets[position] = match.snippet }
            }
        }
        return scores.filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit)
            .map { hit(passage: $0.key, score: $0.value, snippet: snippets[$0.key] ?? "") }
    }

    /// The index's best `limit` matches for any of `terms`, as one `bm25()` query of them all ranks
    /// them (see `CorpusIndex.bestMatches`); nil when the index cannot be read.
    private func matches(anyOf terms: [String], in collection: String?, limit: Int) -> [CorpusIndex.Match]? {
        try? index.bestMatches(anyOf: terms, in: collection, limit: limit, passageCount: passageCount)
    }

    /// How many passages contain `word`.
    package func documentFrequency(ofWord word: String) -> Int {
        index.documentFrequency(ofWord: word)
    }

    /// The inverse document frequency of `word`, `ln(1 + (N − df + 0.5) / (df + 0.5))`, which
    /// stays positive for common words; 0 for a word no passage contains.
    func idf(ofWord word: String) -> Double {
        let df = documentFrequency(ofWord: word)
        guard df > 0 else { return 0 }
        let n = Double(passageCount)
        return log(1 + (n - Double(df) + 0.5) / (Double(df) + 0.5))
    }

    /// The distinct terms of a passage, with its document's title and its heading, in order of
    /// first appearance.
    func terms(ofPassage passageIndex: Int) -> [Term] {
        var seen = Set<String>()
        return indexedTerms(ofPassage: passageIndex).filter { seen.insert($0.stem).inserted }
    }

    /// Every term of a passage, repeats kept: its document's title, its heading and its text.
    package func indexedTerms(ofPassage passageIndex: Int) -> [Term] {
        let passage = passages[passageIndex]
        return passage.indexedTerms(title: documents[passage.documentIndex].title)
    }

    /// A search hit for passage `passage` with the given score and snippet.
    func hit(passage passageIndex: Int, score: Double, snippet: String = "") -> SearchHit {
        let passage = passages[passageIndex]
        let document = documents[passage.documentIndex]
        return SearchHit(
            document: document, heading: passage.heading, text: passage.text, snippet: snippet,
            url: document.url + (passage.anchor.map { "#" + $0 } ?? ""), score: score, passageIndex: passageIndex)
    }
}
