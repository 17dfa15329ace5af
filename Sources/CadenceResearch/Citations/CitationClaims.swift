/// Follows the sentences of an answer's prose and decides which words each citation backs.
///
/// A citation backs the words between the previous citation group of its sentence (or the
/// sentence's start) and itself: "A is B [1] and C is D [2]." checks "A is B" against 1 and
/// "and C is D" against 2. When those words are too few to judge ("According to [1], …"), the whole
/// sentence is the claim; a citation that opens its sentence ("A is B. [1]") backs the sentence
/// before. Claims are settled when their sentence ends, so each character is looked at a bounded
/// number of times.
struct CitationClaims: Sendable {
    struct Citation: Sendable {
        var ordinal: Int
        var source: Int
        var start: Int
        var end: Int
    }

    /// A citation whose claim is settled.
    struct Claim: Sendable {
        var ordinal: Int
        var source: Int
        var text: String
        var stems: Set<String>
    }

    /// A sentence longer than this is settled early, so no claim grows without bound.
    static let maxSentence = 2_000

    private var sentence: [Unicode.Scalar] = []
    private var citations: [Citation] = []
    private var lastMark: Unicode.Scalar?
    private var previous: (text: String, stems: Set<String>) = ("", [])

    /// Prose that was sent; returns the claims settled by a sentence ending here.
    mutating func append(_ scalar: Unicode.Scalar) -> [Claim] {
        if scalar == "\n" { return endSentence() }
        sentence.append(scalar)
        if scalar.properties.isWhitespace {
            if let lastMark, ".!?".unicodeScalars.contains(lastMark) { return endSentence() }
        } else {
            lastMark = scalar
        }
        return sentence.count >= Self.maxSentence ? endSentence() : []
    }

    /// A citation was sent at the current position.
    mutating func cite(ordinal: Int, source: Int) {
        // The space before a citation belongs to it: "to [1], x" claims "to, x".
        while sentence.last?.properties.isWhitespace == true { sentence.removeLast() }
        let end = sentence.count
        if let last = citations.last, sentence[last.end..<end].allSatisfy(\.properties.isWhitespace) {
            // `[1][2]` or `[1] [2]`: one group, one claim.
            citations.append(Citation(ordinal: ordinal, source: source, start: last.start, end: last.end))
        } else {
            citations.append(Citation(ordinal: ordinal, source: source, start: citations.last?.end ?? 0, end: end))
        }
    }

    /// Ends the current sentence (a paragraph or code block begins, or the answer ends).
    mutating func endSentence() -> [Claim] {
        defer {
            sentence.removeAll(keepingCapacity: true)
            citations.removeAll(keepingCapacity: true)
            lastMark = nil
        }
        guard !citations.isEmpty || !sentence.isEmpty else { return [] }
        let whole = Self.text(sentence[...])
        let wholeStems = CitationSupport.stems(whole)
        var claims: [Claim] = []
        var segments: [Int: (String, Set<String>)] = [:]
        for citation in citations {
            let (segment, stems) =
                segments[citation.start]
                ?? {
                    let text = Self.text(sentence[citation.start..<citation.end])
                    return (text, CitationSupport.stems(text))
                }()
            segments[citation.start] = (segment, stems)
            if stems.count >= 2 {
                claims.append(Claim(ordinal: citation.ordinal, source: citation.source, text: segment, stems: stems))
            } else if citation.start == 0 && stems.isEmpty && !previous.stems.isEmpty {
                claims.append(
                    Claim(ordinal: citation.ordinal, source: citation.source, text: previous.text, stems: previous.stems))
            } else {
                claims.append(Claim(ordinal: citation.ordinal, source: citation.source, text: whole, stems: wholeStems))
            }
        }
        if !wholeStems.isEmpty { previous = (whole, wholeStems) }
        return claims
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view).trimmingWhitespace
    }
}
