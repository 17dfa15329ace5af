/// The engine's working memory across search rounds: every passage found so far, with a score
/// fused over all the queries that found it, and the honest check of what the best passages cover.
///
/// ```swift
/// var retrieval = Retrieval(corpus: corpus)
/// let found = retrieval.search(plan.queries, in: "streaming", weight: 1)
/// let reflection = retrieval.reflect(on: plan, round: 1)
/// ```
struct Retrieval: Sendable {
    let corpus: Corpus
    /// Fused score per passage index: the weighted sum of its BM25 scores over every query.
    private(set) var scores: [Int: Double] = [:]

    /// Passages kept per query and collection.
    static let limitPerQuery = 20
    /// How many of the best passages must cover the question's terms.
    static let coverageDepth = 5

    /// A word for each stem the plan knows, since the index stems words its own way.
    let words: [String: String]

    init(corpus: Corpus, words: [String: String] = [:]) {
        self.corpus = corpus
        self.words = words
    }

    /// Runs `queries` within one collection and folds the results in; returns how many
    /// distinct passages of that collection matched.
    mutating func search(_ queries: [PlannedQuery], in collection: String, weight: Double) -> Int {
        var found = Set<Int>()
        for query in queries {
            // The index is asked for words, not stems: the query's own words where it has them.
            var words = self.words
            for term in Tokenizer.terms(in: query.text) where words[term.stem] == nil { words[term.stem] = term.word }
            for hit in corpus.search(query.weights, words: words, in: collection, limit: Self.limitPerQuery) {
                scores[hit.passageIndex, default: 0] += hit.score * weight
                found.insert(hit.passageIndex)
            }
        }
        return found.count
    }

    /// Every passage found so far, best first (ties by position in the corpus).
    var ranked: [(passage: Int, score: Double)] {
        scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// How many distinct documents the passages found so far belong to.
    var documentCount: Int {
        Set(scores.keys.map { corpus.passages[$0].documentIndex }).count
    }

    /// What the search has shown so far, and the next round's queries if another would help.
    struct Reflection: Sendable {
        var covered: [String]
        var missing: [String]
        var sufficient: Bool
        var message: String
        var nextQueries: [PlannedQuery]
    }

    /// Checks whether the best passages contain the question's own terms. When some are missing
    /// but the corpus does contain them, it proposes a second round: the missing terms alone, and
    /// the question expanded with words that are frequent in the best passages.
    func reflect(on plan: ResearchPlan, round: Int) -> Reflection {
        let own = plan.focusStems.filter { plan.focus[$0] == 1 }
        let wanted = own.isEmpty ? plan.focusStems : own
        guard !wanted.isEmpty else {
            return Reflection(
                covered: [], missing: [], sufficient: false, message: "The question has no searchable words.",
                nextQueries: [])
        }
        let top = ranked.prefix(Self.coverageDepth).map(\.passage)
        let seen = top.reduce(into: Set<String>()) { $0.formUnion(corpus.terms(ofPassage: $1).map(\.stem)) }
        let covered = wanted.filter(seen.contains)
        let missing = wanted.filter { !seen.contains($0) }
        let searchable = missing.filter { corpus.documentFrequency(ofWord: plan.words[$0] ?? $0) > 0 }
        let absent = missing.filter { corpus.documentFrequency(ofWord: plan.words[$0] ?? $0) == 0 }
        let sufficient = !covered.isEmpty && covered.count * 3 >= wanted.count * 2

        var message: String
        if top.isEmpty {
            message = "No passage mentions \(plan.list(wanted, conjunction: "or"))."
        } else if missing.isEmpty {
            message = "The best passages cover every key term (\(plan.list(covered)))."
        } else {
            message =
                "The best passages cover \(covered.count) of \(wanted.count) key terms; missing: \(plan.list(missing))."
            if !absent.isEmpty { message += " No document mentions \(plan.list(absent, conjunction: "or"))." }
        }

        var next: [PlannedQuery] = []
        if round == 1 && !searchable.isEmpty {
            let missingWeights = Dictionary(uniqueKeysWithValues: searchable.map { ($0, 1.0) })
            next.append(
                PlannedQuery(
                    text: searchable.map { plan.words[$0] ?? $0 }.joined(separator: " "), weights: missingWeights))
            let related = expansionTerms(from: top, excluding: Set(plan.focus.keys))
            if !related.isEmpty {
                var weights = plan.focus
                for term in related { weights[term.stem] = 0.4 }
                let text = plan.focusStems.map { plan.words[$0] ?? $0 } + related.map(\.word)
                next.append(PlannedQuery(text: text.joined(separator: " "), weights: weights))
            }
            message += " Searching again for \(plan.list(searchable)) with related terms."
        }
        return Reflection(
            covered: covered, missing: missing, sufficient: sufficient, message: message, nextQueries: next)
    }

    /// Pseudo-relevance feedback: the stems that the best passages share and that are rare in
    /// the corpus as a whole.
    private func expansionTerms(from top: [Int], excluding: Set<String>, count: Int = 3) -> [Term] {
        var weight: [String: Double] = [:]
        var words: [String: String] = [:]
        for passage in top.prefix(3) {
            for term in corpus.terms(ofPassage: passage) where !excluding.contains(term.stem) {
                if words[term.stem] == nil { words[term.stem] = term.word }
                weight[term.stem, default: 0] += corpus.idf(ofWord: words[term.stem]!)
            }
        }
        let limit = max(2, corpus.passageCount / 4)
        return weight.filter { corpus.documentFrequency(ofWord: words[$0.key]!) <= limit && $0.key.count > 2 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(count).map { Term(word: words[$0.key]!, stem: $0.key) }
    }
}
