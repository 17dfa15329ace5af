/// An in-memory, indexed collection of documents, searched with BM25 over passages.
///
/// Documents are split into passages of about a paragraph or two (never across a section
/// heading), each indexed with its document's title and its section heading. Text is
/// lowercased, split on non-alphanumerics, stripped of stop words and lightly stemmed.
///
/// ```swift
/// let corpus = try Corpus.bundled()   // or try Corpus(directory: URL(fileURLWithPath: "notes"))
/// for hit in corpus.search("How does Cadence resume a stream?", limit: 3) {
///     print(hit.document.title, hit.heading ?? "", hit.score)
/// }
/// ```
public struct Corpus: Sendable {
    /// The documents, in the order given (when loaded from a folder: its own files, then each subfolder by path).
    public let documents: [Document]
    /// The collection names, in the order their first document appears.
    public let collections: [String]
    let passages: [Passage]
    let index: BM25Index
    /// Each passage's stems with their frequencies, indexed by passage.
    let passageTerms: [[String: Int]]
    /// The first word seen for each stem, to show stems to people ("resum" → "resume").
    let words: [String: String]

    /// Indexes `documents`.
    public init(documents: [Document]) {
        self.documents = documents
        var collections: [String] = []
        for document in documents where !collections.contains(document.collection) {
            collections.append(document.collection)
        }
        self.collections = collections
        passages = documents.enumerated().flatMap { index, document in Passage.split(document, documentIndex: index) }
        var words: [String: String] = [:]
        passageTerms = passages.map { passage in
            var frequencies: [String: Int] = [:]
            for term in passage.indexedTerms(title: documents[passage.documentIndex].title) {
                frequencies[term.stem, default: 0] += 1
                if frequencies[term.stem] == 1 && words[term.stem] == nil { words[term.stem] = term.word }
            }
            return frequencies
        }
        index = BM25Index(frequencies: passageTerms)
        self.words = words
    }

    /// The number of passages the documents were split into.
    public var passageCount: Int { passages.count }

    /// The `limit` best passages for `query`, best first. Passages that match no query term are
    /// never returned, so a query of only stop words, or of words the corpus lacks, returns `[]`.
    public func search(_ query: String, limit: Int) -> [SearchHit] {
        var weights: [String: Double] = [:]
        for stem in Tokenizer.stems(in: query) { weights[stem] = 1 }
        return search(weights, in: nil, limit: limit)
    }

    /// The best passages for a weighted set of stems, optionally within one collection.
    func search(_ query: [String: Double], in collection: String?, limit: Int) -> [SearchHit] {
        guard limit > 0 else { return [] }
        var scored = index.scores(for: query).filter { $0.value > 0 }
        if let collection {
            scored = scored.filter { documents[passages[$0.key].documentIndex].collection == collection }
        }
        return scored.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit)
            .map { hit(passage: $0.key, score: $0.value) }
    }

    /// A search hit for passage `passage` with the given score.
    func hit(passage passageIndex: Int, score: Double) -> SearchHit {
        let passage = passages[passageIndex]
        let document = documents[passage.documentIndex]
        return SearchHit(
            document: document, heading: passage.heading, text: passage.text,
            url: document.url + (passage.anchor.map { "#" + $0 } ?? ""), score: score, passageIndex: passageIndex)
    }
}
