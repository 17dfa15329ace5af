extension StringProtocol {
    /// The string without leading and trailing spaces, tabs, carriage returns and line feeds.
    var trimmedWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return Substring(self[first...last])
    }
}

extension StringProtocol {
    /// At most `limit` characters, the last of them an ellipsis when something was cut: for a
    /// message or a record that quotes text of any length.
    package func clipped(to limit: Int) -> String {
        count <= limit ? String(self) : String(prefix(Swift.max(0, limit - 1))) + "…"
    }

    /// At most `limit` characters like ``clipped(to:)``, but cut after a whole word (at the last
    /// space in the second half of what fits) and without the punctuation that led into the cut:
    /// for a title, a snippet or an excerpt a person reads.
    ///
    /// ```swift
    /// "Exponential backoff, with jitter".clippedAtWord(to: 24)  // "Exponential backoff…"
    /// ```
    package func clippedAtWord(to limit: Int) -> String {
        guard count > limit else { return String(self) }
        var cut = prefix(Swift.max(0, limit - 1))
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > (limit - 1) / 2 {
            cut = cut[..<space]
        }
        while let last = cut.last, ",;: ".contains(last) { cut = cut.dropLast() }
        return String(cut) + "…"
    }

    /// The text on one line, for a message: each run of white space (line breaks among them) becomes
    /// one space, and the line is ``clipped(to:)`` `limit` characters (an HTML error page is long).
    package func oneLine(limit: Int) -> String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ").clipped(to: limit)
    }
}
