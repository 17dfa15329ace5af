import CadenceEngine

/// How well a source backs a claim: the share of the claim's content words (stop words dropped,
/// light stemming, as the search index does) that occur in the source.
///
/// A lexical check cannot prove a claim true; it catches what deep-research engines get wrong
/// most often: a citation to a passage that is about something else.
///
/// ```swift
/// CitationSupport.score(sentence: "Streams resume after a drop", source: "A dropped stream resumes…")  // 1.0
/// ```
public enum CitationSupport {
    /// The share of content words a source must contain for a citation to count as supported.
    public static let defaultThreshold = 0.5

    /// The share of `sentence`'s distinct content words found in `source`, 0…1 (0 for a sentence
    /// without content words).
    public static func score(sentence: String, source: String) -> Double {
        score(claim: stems(sentence), in: stems(source))
    }

    static func score(claim: Set<String>, in source: Set<String>) -> Double {
        guard !claim.isEmpty else { return 0 }
        return Double(claim.intersection(source).count) / Double(claim.count)
    }

    /// The distinct content words of `text`, as stems.
    static func stems(_ text: String) -> Set<String> {
        Set(Tokenizer.stems(in: text))
    }
}
