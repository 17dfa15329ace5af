/// One search term: the lowercased word as written and its stem, which is what the index stores.
package struct Term: Hashable, Sendable {
    package var word: String
    package var stem: String
}

/// Turns text into search terms.
///
/// Text is lowercased and split on anything that is not a letter or a digit; a small list of
/// stop words and single letters are dropped; what remains is stemmed lightly, so that
/// "streams", "streaming" and "streamed" all become "stream":
///
/// ```swift
/// Tokenizer.stems(in: "How does Cadence resume interrupted streams?")
/// // ["cadenc", "resum", "interrupt", "stream"]
/// ```
package enum Tokenizer {
    /// The lowercased words of `text`, stop words included, in order.
    package static func words(in text: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        func flush() {
            if !word.isEmpty {
                words.append(String(decoding: word, as: UTF8.self))
                word.removeAll(keepingCapacity: true)
            }
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                // ASCII fast path: letters and digits, lowercased by hand.
                let byte = UInt8(value)
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
                default: flush()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// The search terms of `text`, in order, with stop words and single letters removed.
    package static func terms(in text: String) -> [Term] {
        words(in: text).compactMap { word in
            guard !isStopWord(word) else { return nil }
            return Term(word: word, stem: stem(word))
        }
    }

    /// The stems of `text`'s search terms, in order (repeats kept).
    package static func stems(in text: String) -> [String] {
        terms(in: text).map(\.stem)
    }

    /// Whether `word` (lowercased) carries no meaning for search.
    package static func isStopWord(_ word: String) -> Bool {
        if word.unicodeScalars.count == 1 {
            // Single letters (the "s" of "Cadence's") say nothing; single digits can ("UTF-8").
            return word.unicodeScalars.first!.properties.numericType == nil
        }
        return stopWords.contains(word)
    }

    /// A light suffix stripper: plurals, "-ing", "-ed" and a final "e".
    ///
    /// It is deliberately conservative: it only needs to map the forms of one word onto one
    /// stem, not to produce a dictionary word. Words with digits or non-ASCII letters are kept whole.
    package static func stem(_ word: String) -> String {
        var bytes = Array(word.utf8)
        guard bytes.count > 2, bytes.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
            return word
        }
        func ends(with suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard bytes.count > count else { return false }
            return suffix.withUTF8Buffer { bytes[(bytes.count - count)...].elementsEqual($0) }
        }
        func isVowel(_ byte: UInt8) -> Bool {
            "aeiouy".utf8.contains(byte)
        }

        // Plurals and third person: "retries" → "retry", "classes" → "class", "streams" → "stream".
        if ends(with: "ies") && bytes.count > 4 {
            bytes.removeLast(3)
            bytes.append(UInt8(ascii: "y"))
        } else if ends(with: "sses") {
            bytes.removeLast(2)
        } else if ends(with: "s") && !ends(with: "ss") && !ends(with: "us") && !ends(with: "is") {
            bytes.removeLast()
        }

        // Past tense and participles: "retried" → "retry", "streaming" → "stream", "stopped" → "stop".
        if ends(with: "ied") && bytes.count > 4 {
            bytes.removeLast(3)
            bytes.append(UInt8(ascii: "y"))
        } else if let suffix = ends(with: "ing") ? 3 : ends(with: "ed") ? 2 : nil {
            let stem = bytes.dropLast(suffix)
            if stem.count >= 3 && stem.contains(where: isVowel) {
                bytes.removeLast(suffix)
                // "stopp" → "stop", but "fall" and "pass" keep their double letter.
                if let last = bytes.last, bytes.count >= 4, bytes[bytes.count - 2] == last,
                    !"aeiouylsz".utf8.contains(last)
                {
                    bytes.removeLast()
                }
            }
        }

        // A final "e" ("resume" and "resumed" both become "resum").
        if bytes.count > 2 && bytes.last == UInt8(ascii: "e") {
            bytes.removeLast()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Words too common to help ranking. Kept small on purpose: BM25's IDF handles the rest.
    static let stopWords: Set<String> = [
        "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but",
        "by", "can", "could", "did", "do", "does", "doing", "done", "for", "from", "had", "has", "have", "he",
        "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "like", "me", "my", "of", "on", "or", "our",
        "she", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
        "those", "to", "too", "use", "used", "uses", "using", "was", "we", "were", "what", "when", "where", "which",
        "while", "who", "whom",
        "why", "will", "with", "would", "you", "your", "tell", "explain", "describe", "please", "should",
    ]
}
