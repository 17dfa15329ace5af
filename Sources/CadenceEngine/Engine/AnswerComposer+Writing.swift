import CadenceCore

extension AnswerComposer {
    /// The longest snippet a source carries, in characters.
    static let snippetLength = 180

    /// Lays the picks out as markdown: a lead naming the sources, the main source's sentences as
    /// a paragraph, and the other sources' sentences as a short bullet list.
    func write(_ picks: [Candidate], candidates: [Candidate], passages: [Int]) -> ComposedAnswer {
        // Sources in rank order of their best passage; sentences within a source in reading order.
        let rank = passages.map { corpus.passages[$0].documentIndex }
        var cited: [Int] = []
        for document in rank where !cited.contains(document) && picks.contains(where: { $0.document == document }) {
            cited.append(document)
        }
        let groups = cited.map { document in
            picks.filter { $0.document == document }.sorted { $0.position.lexicographicallyPrecedes($1.position) }
        }

        var text = lead(cited: cited)
        for (offset, group) in groups.enumerated() {
            let number = offset + 1
            let sentences = group.map { Self.cite($0.text, number) }.joined(separator: " ")
            if offset == 0 {
                text += "\n\n" + sentences
            } else {
                if offset == 1 { text += "\n\nOther sources add:\n" } else { text += "\n" }
                text += "- " + sentences
            }
        }

        let sources = cited.enumerated().map { offset, document in
            source(number: offset + 1, document: document, passages: passages, candidates: candidates)
        }
        let usedHeadings = Set(picks.compactMap { corpus.passages[$0.position[0]].heading })
        return ComposedAnswer(
            text: text, sources: sources,
            followUps: followUps(
                cited: cited,
                others: rank.reduce(into: []) { if !cited.contains($1) && !$0.contains($1) { $0.append($1) } },
                excluding: usedHeadings),
            sentenceCount: picks.count)
    }

    /// The honest answer when nothing matched.
    func noMatch() -> ComposedAnswer {
        let count = corpus.documents.count
        let what = "the corpus (\(count) document\(count == 1 ? "" : "s"))"
        // A few titles, taken from each collection in turn.
        let byCollection = corpus.collections.map { collection in
            corpus.documents.filter { $0.collection == collection }.map(\.title)
        }
        let topics = (0..<(byCollection.map(\.count).max() ?? 0)).flatMap { index in
            byCollection.compactMap { index < $0.count ? $0[index] : nil }
        }.prefix(3)
        var text =
            plan.focus.isEmpty
            ? "Your question has no words I can search for in \(what)."
            : "I couldn't find anything about \(plan.list(plan.focusStems, conjunction: "or")) in \(what)."
        text += " Try other words for the same idea"
        if !topics.isEmpty {
            text +=
                ", or ask about a topic it covers, such as " + Prose.list(topics.map { "*\($0)*" }, conjunction: "or")
        }
        text += "."
        return ComposedAnswer(
            text: text, sources: [], followUps: topics.map { "Tell me about \(Prose.lowercasedStart($0))" },
            sentenceCount: 0)
    }

    private func lead(cited: [Int]) -> String {
        let title = "**\(corpus.documents[cited[0]].title)** [1]"
        var lead = ""
        if !reflection.sufficient && !reflection.missing.isEmpty {
            lead =
                "\(searchedSubject) only partly covers this: the best passages say nothing about "
                + "\(plan.list(reflection.missing, conjunction: "or")). "
        }
        if cited.count == 1 {
            return lead + "This comes from \(title)."
        }
        let others = cited.count - 1
        return lead + "This draws on \(cited.count) sources, chiefly \(title), with \(others) more below."
    }

    /// What was searched, as the subject of a sentence: "The corpus", or "What searxng and pubmed
    /// found" for the results of other sources.
    var searchedSubject: String {
        guard let searched, searched != ["corpus"], !searched.isEmpty else { return "The corpus" }
        return "What \(Prose.list(searched)) found"
    }

    private func source(number: Int, document: Int, passages: [Int], candidates: [Candidate]) -> Source {
        let doc = corpus.documents[document]
        let passage = passages.first { corpus.passages[$0].documentIndex == document }.map { corpus.passages[$0] }
        let best = candidates.filter { $0.document == document }.max { $0.relevance < $1.relevance }
        let snippet = best?.text ?? passage?.blocks.first(where: \.isProse)?.text ?? ""
        return Source(
            id: String(number), title: doc.title,
            url: doc.url + (passage?.anchor.map { "#" + $0 } ?? ""),
            snippet: snippet.clippedAtWord(to: Self.snippetLength))
    }

    /// Two or three questions about sections the answer did not quote: from the cited documents
    /// first (taking one heading from each in turn, so the suggestions vary), then from the other
    /// documents that matched.
    private func followUps(cited: [Int], others: [Int], excluding used: Set<String>) -> [String] {
        var questions: [String] = []
        for documents in [cited, others] {
            var headings: [[String]] = documents.map { document in
                let title = corpus.documents[document].title
                var seen = Set<String>()
                return corpus.passages.filter { $0.documentIndex == document }.compactMap(\.heading)
                    .filter { $0 != title && !used.contains($0) && seen.insert($0).inserted }
            }
            while questions.count < 3, let index = headings.indices.first(where: { !headings[$0].isEmpty }) {
                let heading = headings[index].removeFirst()
                // Move that document to the back of the queue.
                headings.append(headings.remove(at: index))
                questions.append(
                    heading.hasSuffix("?") ? heading : "Tell me more about \(Prose.lowercasedStart(heading))")
            }
        }
        return questions
    }

    /// `"Retries are capped."` cited as `[2]` → `"Retries are capped [2]."`.
    static func cite(_ sentence: String, _ number: Int) -> String {
        if let last = sentence.last, last == "." || last == "!" {
            return sentence.dropLast() + " [\(number)]" + String(last)
        }
        return sentence + " [\(number)]."
    }
}
