import CadenceMarkdown

/// Follows the sentences of an answer's prose and decides which words each citation backs.
///
/// A citation backs the words between the previous citation group of its sentence (or the
/// sentence's start) and itself: "A is B [1] and C is D [2]." checks "A is B" against 1 and
/// "and C is D" against 2. When those words are too few to judge ("According to [1], …"), the whole
/// sentence is the claim; a citation that opens its sentence ("A is B. [1]") backs the sentence
/// before. Claims are settled when their sentence ends, and only sentences with citations (or the
/// one before them) are ever split into words, so each byte is looked at a bounded number of times.
struct CitationClaims: Sendable {
    /// A citation's number in the text, the source it cites, and the byte range of the sentence it
    /// backs so far.
    struct Citation: Sendable {
        var ordinal, source, start, end: Int
    }

    /// A citation whose claim is settled.
    struct Claim: Sendable {
        var ordinal, source: Int
        var text: String
        var stems: Set<String>
    }

    /// A sentence longer than this (in bytes) is settled early, so no claim grows without bound.
    static let maxSentence = 4_000

    private var sentence: [UInt8] = []
    private var citations: [Citation] = []
    private var lastMark: UInt8 = 0
    /// The last sentence that had words, for a citation that opens the next one.
    private var previous: [UInt8] = []

    /// A byte of prose that was sent; returns the claims settled by a sentence ending here.
    mutating func append(_ byte: UInt8) -> [Claim] {
        if byte == .lineFeed { return endSentence() }
        sentence.append(byte)
        if byte.isWhitespace {
            if lastMark == UInt8(ascii: ".") || lastMark == UInt8(ascii: "!") || lastMark == UInt8(ascii: "?") {
                return endSentence()
            }
        } else {
            lastMark = byte
        }
        return sentence.count >= Self.maxSentence && byte < 0x80 ? endSentence() : []
    }

    /// A citation was sent at the current position.
    mutating func cite(ordinal: Int, source: Int) {
        // The space before a citation belongs to it: "to [1], x" claims "to, x".
        while sentence.last?.isWhitespace == true { sentence.removeLast() }
        let end = sentence.count
        if let last = citations.last, sentence[last.end..<end].allSatisfy(\.isWhitespace) {
            // `[1][2]` or `[1] [2]`: one group, one claim.
            citations.append(Citation(ordinal: ordinal, source: source, start: last.start, end: last.end))
        } else {
            citations.append(Citation(ordinal: ordinal, source: source, start: citations.last?.end ?? 0, end: end))
        }
    }

    /// Ends the current sentence (a paragraph or code block begins, or the answer ends).
    mutating func endSentence() -> [Claim] {
        defer {
            if Self.hasWords(sentence) { swap(&previous, &sentence) }
            sentence.removeAll(keepingCapacity: true)
            citations.removeAll(keepingCapacity: true)
            lastMark = 0
        }
        guard !citations.isEmpty else { return [] }
        var whole: (text: String, stems: Set<String>)?
        var previousClaim: (text: String, stems: Set<String>)?
        var segment: (start: Int, text: String, stems: Set<String>)?
        var claims: [Claim] = []
        for citation in citations {
            if segment?.start != citation.start {
                let text = Self.text(sentence[citation.start..<citation.end])
                segment = (citation.start, text, CitationSupport.stems(text))
            }
            let claim: (text: String, stems: Set<String>)
            if segment!.stems.count >= 2 {
                claim = (segment!.text, segment!.stems)
            } else if citation.start == 0 && segment!.stems.isEmpty && Self.hasWords(previous) {
                if previousClaim == nil {
                    let text = Self.text(previous[...])
                    previousClaim = (text, CitationSupport.stems(text))
                }
                claim = previousClaim!
            } else {
                if whole == nil {
                    let text = Self.text(sentence[...])
                    whole = (text, CitationSupport.stems(text))
                }
                claim = whole!
            }
            claims.append(Claim(ordinal: citation.ordinal, source: citation.source, text: claim.text, stems: claim.stems))
        }
        return claims
    }

    /// Whether the bytes hold a letter or digit (any non-ASCII byte counts: it is part of a letter
    /// more often than not, and the word check that matters comes later).
    static func hasWords(_ bytes: [UInt8]) -> Bool {
        bytes.contains { byte in
            byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingWhitespace
    }
}
