import CadenceCore

/// What the corpus engine's sources have found so far, over every round: each passage once (two
/// results that share a URL, DOI or PMID are one, with the fuller text and the details of both), the failures in
/// the order they came, and the search time spent, which the search budget is counted against.
///
/// The passages become a small ``Corpus`` of their own, one collection per source, that the
/// engine ranks and quotes exactly as it does its documents.
///
/// ```swift
/// var found = FoundPassages()
/// let added = found.merge(findings)
/// let corpus = found.corpus
/// ```
struct FoundPassages: Sendable {
    /// Each passage with the source that found it first.
    private(set) var passages: [(source: String, passage: FoundPassage)] = []
    /// The position in ``passages`` under each of its identities.
    private var positions: [String: Int] = [:]
    private(set) var failures: [(source: String, reason: String)] = []
    /// How many of the rounds' source searches answered (with passages or without).
    private(set) var answered = 0
    /// The time the searches have taken, all rounds together.
    var searchTime: Duration = .zero

    var isEmpty: Bool { passages.isEmpty }

    /// Folds a round's findings in; returns how many passages were new.
    mutating func merge(_ findings: [SourceFindings]) -> Int {
        var added = 0
        for finding in findings {
            if let failure = finding.failure { failures.append((finding.source, failure)) } else { answered += 1 }
            for passage in finding.passages {
                if let key = passage.identities.first(where: { positions[$0] != nil }), let position = positions[key] {
                    // The fuller text wins (a paper's abstract over a web page's snippet of it).
                    var kept = passages[position].passage
                    if passage.text.count > kept.text.count {
                        (kept.title, kept.url, kept.text) = (passage.title, passage.url, passage.text)
                        kept.details = passage.details
                        kept.details.fill(from: passages[position].passage.details)
                    } else {
                        kept.details.fill(from: passage.details)
                    }
                    passages[position].passage = kept
                    for key in passage.identities { positions[key] = position }
                } else {
                    for key in passage.identities { positions[key] = passages.count }
                    passages.append((finding.source, passage))
                    added += 1
                }
            }
        }
        return added
    }

    /// The passages as documents, one collection per source, to rank and quote (in an in-memory index).
    var corpus: Corpus {
        get throws(CorpusError) {
            try Corpus(
            documents: passages.map { source, passage in
                Document(collection: source, path: passage.url, text: passage.text, title: passage.title, url: passage.url)
            })
        }
    }

    /// `source` with the details of the passage it was made from (matched by URL; a source's URL
    /// may carry a section anchor its passage's lacks).
    func detailed(_ source: Source) -> Source {
        let match =
            passages.first { $0.passage.url == source.url }
            ?? passages.first { source.url.hasPrefix($0.passage.url + "#") }
        guard let match else { return source }
        var source = source
        source.details = match.passage.details
        return source
    }

    /// The failures as `search_failures` metadata: one `{"source", "reason"}` each.
    var failureMetadata: JSONValue {
        .array(failures.map { .object(["source": .string($0.source), "reason": .string($0.reason)]) })
    }
}
