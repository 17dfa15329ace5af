public import CadenceEngine

/// The local documents as a search source, named `corpus`: the default when no other is chosen.
///
/// ```swift
/// let source = CorpusSearchSource(corpus: try Corpus.bundled())
/// let passages = try await source.search("resume after a drop", limit: 5)
/// ```
public struct CorpusSearchSource: SearchSource {
    public let name = "corpus"
    public let corpus: Corpus

    public init(corpus: Corpus) {
        self.corpus = corpus
    }

    public func search(_ query: String, limit: Int) async throws -> [RetrievedPassage] {
        corpus.search(query, limit: limit).map(RetrievedPassage.init)
    }
}
