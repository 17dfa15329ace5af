import CadenceCore
import Foundation

/// One search the engine will run: its text for people and its weighted stems for the index.
struct PlannedQuery: Sendable, Hashable {
    var text: String
    var weights: [String: Double]
}

/// What the engine decides before searching: how deep to go, which queries to run and which
/// terms an answer has to cover.
///
/// A question is "deep" when it has several parts ("…and…", "…vs…", several questions) or
/// many key terms; each part then becomes its own query. A short follow-up ("and how does it
/// retry?") borrows the previous user turn's terms, at a lower weight than its own.
///
/// ```swift
/// let plan = ResearchPlan(AnswerRequest(query: "How does SSE compare with WebSockets?"))
/// plan.tier          // .deep
/// plan.queries.map(\.text)
/// ```
struct ResearchPlan: Sendable {
    enum Tier: String, Sendable {
        case quick, deep
    }

    var question: String
    var tier: Tier
    var tierReason: String
    var queries: [PlannedQuery]
    /// The terms an answer should cover, with their weights (context terms weigh less).
    var focus: [String: Double]
    /// A readable word for each stem, for messages ("resum" → "resume").
    var words: [String: String]
    /// The previous user question this one follows up on, if any.
    var context: String?

    /// Weight of a term borrowed from the previous question.
    static let contextWeight = 0.5
    /// More key terms than this make a question deep even in one part.
    static let deepTermCount = 8
    /// How many key terms each group query of a long question holds.
    static let groupSize = 4

    init(_ request: AnswerRequest) {
        question = request.query.trimmingCharacters(in: .whitespacesAndNewlines)
        let terms = Tokenizer.terms(in: question)
        var words: [String: String] = [:]
        for term in terms where words[term.stem] == nil { words[term.stem] = term.word }
        // Show the user's words as they wrote them ("France", not "france").
        for written in question.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            if let stem = Tokenizer.terms(in: String(written)).first?.stem, words[stem] == written.lowercased() {
                words[stem] = String(written)
            }
        }

        var focus: [String: Double] = [:]
        for term in terms { focus[term.stem] = 1 }

        let previous = request.history.last(where: { $0.role == "user" })?.content
        if let previous, Self.isFollowUp(question, termCount: focus.count) {
            context = previous
            for term in Tokenizer.terms(in: previous) where focus[term.stem] == nil {
                focus[term.stem] = Self.contextWeight
                if words[term.stem] == nil { words[term.stem] = term.word }
            }
        }
        self.focus = focus
        self.words = words

        let parts = Self.parts(of: question).filter { !Tokenizer.terms(in: $0).isEmpty }
        var queries = [PlannedQuery(text: question, weights: focus)]
        if context != nil {
            queries[0].text = Self.keywords(focus, words: words)
        }
        if parts.count > 1 {
            tier = .deep
            tierReason = "the question has \(parts.count) parts; each gets its own search"
            for part in parts {
                var weights = focus.filter { $0.value < 1 }
                for term in Tokenizer.terms(in: part) { weights[term.stem] = 1 }
                queries.append(PlannedQuery(text: part, weights: weights))
            }
        } else if terms.count > Self.deepTermCount {
            // One long clause: search its key terms in groups too, so each group's passages can surface.
            tier = .deep
            var unique: [Term] = []
            for term in terms where !unique.contains(where: { $0.stem == term.stem }) { unique.append(term) }
            tierReason = "the question has \(unique.count) key terms; they are also searched in groups"
            for start in stride(from: 0, to: unique.count, by: Self.groupSize) {
                let group = unique[start..<min(start + Self.groupSize, unique.count)]
                queries.append(
                    PlannedQuery(
                        text: group.map(\.word).joined(separator: " "),
                        weights: Dictionary(uniqueKeysWithValues: group.map { ($0.stem, 1.0) })))
            }
        } else {
            tier = .quick
            tierReason =
                focus.isEmpty
                ? "the question has no searchable words"
                : "a focused question with \(focus.count) key term\(focus.count == 1 ? "" : "s")"
        }
        if context != nil { tierReason += "; a follow-up, so the previous question's terms are added" }
        self.queries = queries
    }

    /// The stems of the focus, in a stable order: the user's own words first, then context.
    var focusStems: [String] {
        focus.keys.sorted { (focus[$0]!, $1) > (focus[$1]!, $0) }
    }

    /// Readable words for some stems, such as "resume, interrupted and stream".
    func list(_ stems: [String], conjunction: String = "and") -> String {
        Prose.list(stems.map { words[$0] ?? $0 }, conjunction: conjunction)
    }

    /// The focus as a keyword query, strongest terms first.
    private static func keywords(_ focus: [String: Double], words: [String: String]) -> String {
        focus.keys.sorted { (focus[$0]!, $1) > (focus[$1]!, $0) }.map { words[$0] ?? $0 }.joined(separator: " ")
    }

    /// A question that leans on the one before: it starts with a joining word ("and how…",
    /// "what about…"), refers back with a pronoun ("how does it retry?"), or has no key term of
    /// its own ("why?").
    static func isFollowUp(_ question: String, termCount: Int) -> Bool {
        let words = Tokenizer.words(in: question)
        guard let first = words.first else { return false }
        if ["and", "also", "but", "so", "then", "or"].contains(first) { return true }
        if words.count >= 2, ["what", "how"].contains(first), ["about", "else"].contains(words[1]) { return true }
        let pronouns: Set<String> = ["it", "its", "they", "them", "their"]
        return words.contains(where: pronouns.contains) || termCount == 0
    }

    /// The parts of a multi-part question: split at question marks, semicolons, " vs " and
    /// " and " joining two clauses that each have a key term.
    static func parts(of question: String) -> [String] {
        var parts: [String] = []
        for sentence in question.split(whereSeparator: { $0 == "?" || $0 == ";" }) {
            var pieces: [Substring] = [sentence]
            for separator in [
                " and ", " vs. ", " vs ", " versus ", " compared to ", " compared with ", " compare to ",
                " compare with ",
            ] {
                pieces = pieces.flatMap { $0.split(separator: separator) }
            }
            // Only split "a and b" when both sides can be searched on their own.
            if pieces.count > 1 && pieces.allSatisfy({ !Tokenizer.terms(in: String($0)).isEmpty }) {
                parts += pieces.map { String($0.trimmingSpaces()) }
            } else {
                parts.append(String(sentence.trimmingSpaces()))
            }
        }
        return parts.filter { !$0.isEmpty }
    }
}
