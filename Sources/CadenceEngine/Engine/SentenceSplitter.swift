/// Splits prose into sentences, and answer text into word-sized tokens.
///
/// A sentence ends at `.`, `!` or `?` followed by a space and a capital letter, a digit or an
/// opening mark, unless the period belongs to an abbreviation ("e.g.") or sits inside a code span.
///
/// ```swift
/// SentenceSplitter.sentences(in: "Back off. Then retry, e.g. after 2 s. Done.")
/// // ["Back off.", "Then retry, e.g. after 2 s.", "Done."]
/// SentenceSplitter.wordTokens(in: "Hi there [1].")  // ["Hi", " there", " [1]."]
/// ```
enum SentenceSplitter {
    private static let abbreviations: Set<String> = ["e.g", "i.e", "etc", "vs", "cf", "mr", "dr", "approx", "no"]

    static func sentences(in text: String) -> [String] {
        let characters = Array(text)
        var sentences: [String] = []
        var start = 0
        var inCode = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" { inCode.toggle() }
            if !inCode, character == "." || character == "!" || character == "?", isBoundary(characters, at: index) {
                append(characters[start...index], to: &sentences)
                start = index + 1
            }
            index += 1
        }
        if start < characters.count { append(characters[start...], to: &sentences) }
        return sentences
    }

    /// Splits text into tokens of one word each, every token carrying the whitespace before it,
    /// so that joining the tokens gives back the text exactly.
    static func wordTokens(in text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var inWord = false
        for character in text {
            if character.isWhitespace {
                if inWord {
                    tokens.append(current)
                    current = ""
                    inWord = false
                }
            } else {
                inWord = true
            }
            current.append(character)
        }
        if !current.isEmpty {
            if inWord || tokens.isEmpty { tokens.append(current) } else { tokens[tokens.count - 1] += current }
        }
        return tokens
    }

    private static func isBoundary(_ characters: [Character], at index: Int) -> Bool {
        let next = index + 1
        guard next < characters.count else { return true }
        guard characters[next].isWhitespace else {
            // A closing quote or bracket can follow the period: `…done.") Next`.
            return false
        }
        var after = next
        while after < characters.count && characters[after].isWhitespace { after += 1 }
        guard after < characters.count else { return true }
        let opener = characters[after]
        guard opener.isUppercase || opener.isNumber || "`*\"“(_[".contains(opener) else { return false }
        if characters[index] == "." {
            var wordStart = index
            while wordStart > 0 && !characters[wordStart - 1].isWhitespace && characters[wordStart - 1] != "(" {
                wordStart -= 1
            }
            let word = String(characters[wordStart..<index]).lowercased()
            if abbreviations.contains(word) { return false }
        }
        return true
    }

    private static func append(_ characters: ArraySlice<Character>, to sentences: inout [String]) {
        let sentence = String(characters).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if !sentence.isEmpty { sentences.append(sentence) }
    }
}
