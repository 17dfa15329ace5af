import CadenceCore

/// An extractive answer: markdown text whose `[n]` citations point at ``sources``.
struct ComposedAnswer: Sendable {
    var text: String
    var sources: [Source]
    var followUps: [String]
    /// How many sentences were quoted.
    var sentenceCount: Int
}

/// Writes an answer from the best passages by quoting their most relevant sentences.
///
/// Sentences are chosen greedily: each pick is the sentence with the best mix of relevance
/// (IDF-weighted question terms it contains), novelty (question terms no earlier pick covered)
/// and the strength of its passage, skipping near-duplicates of earlier picks. The picks are then
/// grouped by source, in corpus order, each followed by its `[n]`. Nothing is invented: every
/// sentence but the lead is quoted from a source, and the lead only names them.
///
/// ```swift
/// let answer = AnswerComposer(corpus: corpus, plan: plan, ranked: retrieval.ranked, reflection: reflection).compose()
/// print(answer.text)  // "This draws on 3 sources, chiefly **Resuming a stream** [1]. …"
/// ```
struct AnswerComposer: Sendable {
    let corpus: Corpus
    let plan: ResearchPlan
    let ranked: [(passage: Int, score: Double)]
    let reflection: Retrieval.Reflection
    /// The sources whose results the passages are (`searxng`, `pubmed`), or nil for the corpus's
    /// own documents: what the answer says was searched.
    var searched: [String]? = nil

    /// A sentence that could be quoted.
    struct Candidate: Sendable {
        var document: Int
        /// Position in the corpus (passage, block, sentence), used to keep reading order.
        var position: [Int]
        var text: String
        var stems: Set<String>
        var words: Int
        /// The IDF-weighted question terms the sentence contains.
        var relevance: Double
        /// How much of the best passages' shared vocabulary it uses, from 0 to 1.
        var topicality: Double
        /// Its passage's score relative to the best passage's.
        var strength: Double
        /// Whether it starts by referring back ("It…", "This…") to a sentence before it.
        var dangling: Bool

        /// Whether this sentence comes right after `other` in the same block.
        func follows(_ other: Candidate) -> Bool {
            position[0...1] == other.position[0...1] && position[2] == other.position[2] + 1
        }
    }

    var maximumSources: Int { plan.tier == .deep ? 5 : 4 }
    var targetWords: Int { plan.tier == .deep ? 190 : 130 }
    static let maximumWords = 240
    static let minimumWords = 80

    func compose() -> ComposedAnswer {
        guard let best = ranked.first else { return noMatch() }
        var documents: [Int] = []
        var passages: [(passage: Int, score: Double)] = []
        for entry in ranked where entry.score >= best.score * 0.3 {
            let document = corpus.passages[entry.passage].documentIndex
            if !documents.contains(document) {
                guard documents.count < maximumSources else { continue }
                documents.append(document)
            }
            passages.append(entry)
            if passages.count == 12 { break }
        }
        let candidates = self.candidates(in: passages, best: best.score)
        var picks = select(from: candidates)
        if picks.isEmpty {
            // The passages match only through their titles or headings: quote their openings.
            picks = Array(candidates.prefix(2))
        }
        guard !picks.isEmpty else { return noMatch() }
        return write(picks, candidates: candidates, passages: passages.map(\.passage))
    }

    // MARK: Choosing sentences

    func candidates(in passages: [(passage: Int, score: Double)], best: Double) -> [Candidate] {
        let topic = topicWeights(passages.prefix(5).map { ($0.passage, $0.score / best) })
        var candidates: [Candidate] = []
        for (passageIndex, score) in passages {
            let passage = corpus.passages[passageIndex]
            // A sentence under a title or heading that names a question term is about that term too.
            let context = Set(
                Tokenizer.stems(in: corpus.documents[passage.documentIndex].title + " " + (passage.heading ?? "")))
            for (blockIndex, block) in passage.blocks.enumerated() where block.isProse {
                for (sentenceIndex, sentence) in SentenceSplitter.sentences(in: block.text).enumerated() {
                    let words = sentence.wordCount
                    guard (4...60).contains(words), let last = sentence.last, last != ":", last != "?",
                        !Self.containsCitationMarker(sentence)
                    else { continue }
                    let stems = Set(Tokenizer.stems(in: sentence))
                    let relevance =
                        stems.reduce(0.0) { $0 + weight(of: $1) }
                        + context.subtracting(stems).reduce(0.0) { $0 + weight(of: $1) / 2 }
                    let topicality =
                        stems.reduce(0.0) { $0 + (topic[$1] ?? 0) } / Double(max(stems.count, 1)).squareRoot()
                    candidates.append(
                        Candidate(
                            document: passage.documentIndex, position: [passageIndex, blockIndex, sentenceIndex],
                            text: sentence, stems: stems, words: words, relevance: relevance,
                            topicality: topicality, strength: score / best,
                            dangling: sentenceIndex > 0 && Self.startsWithReference(sentence)))
                }
            }
        }
        let bestTopicality = candidates.map(\.topicality).max() ?? 0
        if bestTopicality > 0 {
            for index in candidates.indices { candidates[index].topicality /= bestTopicality }
        }
        return candidates
    }

    /// Words that several of the best passages share beyond the question's own, weighted by
    /// rarity and by the strength of those passages: what the answer is about, in the corpus's words.
    private func topicWeights(_ top: [(passage: Int, strength: Double)]) -> [String: Double] {
        var weights: [String: Double] = [:]
        var counts: [String: Int] = [:]
        for (passage, strength) in top {
            for term in corpus.terms(ofPassage: passage) where plan.focus[term.stem] == nil {
                weights[term.stem, default: 0] += corpus.idf(ofWord: term.word) * strength
                counts[term.stem, default: 0] += 1
            }
        }
        return weights.filter { counts[$0.key]! >= 2 }
    }

    /// Picks sentences that contain question terms until the answer reaches its target length;
    /// if it is still too short to read well, adds sentences that follow a pick, then sentences
    /// that are on topic in strong passages.
    func select(from candidates: [Candidate]) -> [Candidate] {
        var selection = Selection(composer: self, candidates: candidates)
        guard selection.totalWeight > 0, selection.bestRelevance > 0 else { return [] }
        selection.fill(from: candidates.filter { $0.relevance > 0 }, until: targetWords)
        if selection.words < Self.minimumWords {
            let picks = selection.picks
            let followers = candidates.filter { candidate in
                picks.contains(where: candidate.follows)
            }
            selection.fill(from: followers, until: Self.minimumWords)
        }
        if selection.words < Self.minimumWords {
            selection.fill(
                from: candidates.filter { $0.strength >= 0.5 && $0.topicality >= 0.5 }, until: Self.minimumWords)
        }
        return selection.picks
    }

    /// The greedy state of ``select(from:)``: what is picked and which question terms it covers.
    private struct Selection {
        let composer: AnswerComposer
        let totalWeight: Double
        let bestRelevance: Double
        var picks: [Candidate] = []
        var covered = Set<String>()
        var words = 0

        init(composer: AnswerComposer, candidates: [Candidate]) {
            self.composer = composer
            totalWeight = composer.plan.focus.reduce(0.0) { $0 + $1.value * composer.weight(of: $1.key) }
            bestRelevance = candidates.map(\.relevance).max() ?? 0
        }

        /// The value of adding `candidate` now: relevance, newly covered terms, passage strength and
        /// topicality, less a little for each earlier pick from the same source and a lot for a
        /// sentence that refers back to one that is not picked.
        func gain(_ candidate: Candidate) -> Double {
            let novelty = candidate.stems.subtracting(covered).reduce(0.0) { $0 + composer.weight(of: $1) }
            let sameSource = picks.filter { $0.document == candidate.document }.count
            var gain = candidate.relevance / bestRelevance + 0.8 * novelty / totalWeight + 0.6 * candidate.strength
            gain += 0.4 * candidate.topicality - 0.1 * Double(sameSource)
            if candidate.dangling && !picks.contains(where: candidate.follows) { gain -= 0.6 }
            return gain
        }

        mutating func fill(from candidates: [Candidate], until target: Int) {
            var pool = candidates.filter { candidate in !picks.contains { $0.position == candidate.position } }
            while words < target, !pool.isEmpty {
                let gains = pool.map(gain)
                let index = gains.indices.max { gains[$0] != gains[$1] ? gains[$0] < gains[$1] : $0 > $1 }!
                let pick = pool.remove(at: index)
                guard words + pick.words <= AnswerComposer.maximumWords,
                    !picks.contains(where: { AnswerComposer.overlap($0.stems, pick.stems) > 0.5 })
                else { continue }
                picks.append(pick)
                words += pick.words
                covered.formUnion(pick.stems)
            }
        }
    }

    /// The weight of a stem in the question: its query weight times its IDF (0 if not asked about).
    func weight(of stem: String) -> Double {
        guard let focus = plan.focus[stem] else { return 0 }
        return focus * corpus.idf(ofWord: plan.words[stem] ?? stem)
    }

    /// Whether a sentence holds something that reads as a citation, such as "`[3]`": quoting it
    /// would put a marker in the answer that points at no source.
    static func containsCitationMarker(_ sentence: String) -> Bool {
        var rest = sentence[...]
        while let open = rest.firstIndex(of: "[") {
            rest = rest[rest.index(after: open)...]
            let digits = rest.prefix(while: \.isNumber)
            if !digits.isEmpty && rest.dropFirst(digits.count).first == "]" { return true }
        }
        return false
    }

    /// Whether a sentence leans on the one before it ("It resumes…", "This means…").
    static func startsWithReference(_ sentence: String) -> Bool {
        let first = sentence.prefix { $0.isLetter }
        return ["It", "Its", "This", "That", "These", "Those", "They", "Their", "Them", "Such", "Here", "Then"]
            .contains(String(first))
    }

    /// Jaccard similarity of two stem sets.
    static func overlap(_ lhs: Set<String>, _ rhs: Set<String>) -> Double {
        let union = lhs.union(rhs).count
        return union == 0 ? 0 : Double(lhs.intersection(rhs).count) / Double(union)
    }
}
