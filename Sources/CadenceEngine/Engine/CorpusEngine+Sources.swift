import CadenceCore

extension CorpusEngine {
    /// Passages asked of each source per query.
    static let passagesPerSourceQuery = 8

    /// One round over the chosen sources: a `searching` event naming each, every query on every
    /// source at once within what is left of the search budget, then each source's
    /// `search_complete` or `search_failed`, its passages merged into `found`.
    func search(
        _ sources: any SourceSearch, _ queries: [PlannedQuery], found: inout FoundPassages, emitter: Emitter
    ) async throws {
        for name in sources.sourceNames {
            try await emitter.stage(.searching(source: name), pause: false)
        }
        let started = now()
        let findings = await sources.findings(
            for: queries.map(\.text), limit: Self.passagesPerSourceQuery, timeLeft: searchBudget - found.searchTime)
        found.searchTime += now() - started
        try Task.checkCancellation()
        _ = found.merge(findings)
        for finding in findings {
            let event: ResearchEvent.Kind =
                finding.failure.map { .searchFailed(source: finding.source, reason: $0) }
                ?? .searchComplete(count: finding.passages.count, source: finding.source)
            try await emitter.stage(event, pause: false)
        }
    }

    /// What the sources found, ranked for every round's queries as the corpus's own passages are:
    /// the first round's at full weight, later rounds' at 0.6.
    static func rank(_ corpus: Corpus, asked: [[PlannedQuery]], words: [String: String]) -> Retrieval {
        var retrieval = Retrieval(corpus: corpus, words: words)
        for (round, queries) in asked.enumerated() {
            for collection in corpus.collections {
                _ = retrieval.search(queries, in: collection, weight: round == 0 ? 1 : 0.6)
            }
        }
        return retrieval
    }

    /// `answer` with each source's details (kind, venue, date, identifiers) from the passage it
    /// quotes, or, when nothing could be quoted, an honest answer that names the sources searched
    /// and, when every search failed, why.
    static func sourced(_ answer: ComposedAnswer, found: FoundPassages, plan: ResearchPlan, names: [String])
        -> ComposedAnswer
    {
        var answer = answer
        guard answer.sources.isEmpty else {
            answer.sources = answer.sources.map(found.detailed)
            return answer
        }
        answer.followUps = []
        let failures = found.failures.map { "\($0.source) (\($0.reason))" }
        if found.isEmpty && !failures.isEmpty && found.answered == 0 {
            answer.text =
                "Every search failed, so there is nothing to quote: \(Prose.list(failures)). Try again later, or search other sources."
            return answer
        }
        let failed = Set(found.failures.map(\.source))
        let searched = names.filter { !failed.contains($0) }
        let scope = Prose.list(searched.isEmpty ? names : searched)
        let unsearched = failures.isEmpty ? "" : "; \(Prose.list(failures)) could not be searched"
        if plan.focus.isEmpty {
            answer.text = "Your question has no words I can search \(scope) for\(unsearched)."
        } else {
            answer.text =
                "I couldn't find anything about \(plan.list(plan.focusStems, conjunction: "or")) in \(scope)\(unsearched). Try other words for the same idea."
        }
        return answer
    }
}
