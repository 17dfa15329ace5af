/// Small helpers for writing text people read.
enum Prose {
    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String], conjunction: String = "and") -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// "Exponential backoff" → "exponential backoff", but "WebSockets", "BM25" and "Cadence …"
    /// keep their capital.
    static func lowercasedStart(_ heading: String) -> String {
        let firstWord = heading.prefix { $0 != " " }
        guard firstWord != "I", firstWord != "Cadence",
            firstWord.dropFirst().filter(\.isLetter).allSatisfy(\.isLowercase)
        else {
            return heading
        }
        return heading.prefix(1).lowercased() + heading.dropFirst()
    }
}
