public import CadenceEngine

/// The fanout as the corpus engine's sources: each source's results over every query, each passage
/// once within the source (the engine merges across sources and rounds by the same identities).
extension SearchFanout: SourceSearch {
    public var sourceNames: [String] { names }

    public func findings(for queries: [String], limit: Int, timeLeft: Duration) async -> [SourceFindings] {
        await search(queries, limit: limit, timeLeft: timeLeft).map { outcome in
            var seen = Set<String>()
            let passages = outcome.results.joined().filter { passage in
                let keys = passage.identities
                defer { seen.formUnion(keys) }
                return seen.isDisjoint(with: keys)
            }
            return SourceFindings(
                source: outcome.source, passages: passages.map(FoundPassage.init), failure: outcome.failure)
        }
    }
}

extension FoundPassage {
    /// The passage as the engine quotes it: titled with its section, keyed by its identities.
    public init(_ passage: RetrievedPassage) {
        self.init(
            title: passage.label, url: passage.url, text: passage.text, details: passage.details,
            identities: passage.identities)
    }
}
