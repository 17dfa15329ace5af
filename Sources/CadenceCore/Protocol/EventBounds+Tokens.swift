extension EventBounds {
    /// `text` in pieces of at most ``maxTokenBytes`` UTF-8 bytes that join to `text`: cut between
    /// graphemes, and before a citation marker (`[12]`) rather than inside it. A grapheme larger than
    /// the limit on its own is cut between its Unicode scalars. One pass over the text.
    func tokenPieces(of text: String) -> [String] {
        guard text.utf8.count > maxTokenBytes else { return [text] }
        var pieces: [String] = []
        var start = text.startIndex
        var index = start
        var bytes = 0
        // Where an unclosed `[` followed only by digits began, in the current piece.
        var openMarker: String.Index?
        while index < text.endIndex {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            if size > maxTokenBytes {
                if start < index { pieces.append(String(text[start..<index])) }
                pieces += scalarPieces(of: text[index..<next])
                start = next
                bytes = 0
                openMarker = nil
                index = next
                continue
            }
            if bytes + size > maxTokenBytes, index > start {
                let cut = openMarker.flatMap { $0 > start ? $0 : nil } ?? index
                pieces.append(String(text[start..<cut]))
                start = cut
                bytes = text.utf8.distance(from: start, to: index)
            }
            switch text[index] {
            case "[": openMarker = index
            case "0"..."9" where openMarker.map { text.utf8.distance(from: $0, to: index) <= 12 } ?? false: break
            default: openMarker = nil
            }
            bytes += size
            index = next
        }
        if start < text.endIndex { pieces.append(String(text[start...])) }
        return pieces
    }

    /// One grapheme too large for a token, cut between Unicode scalars (never inside one).
    private func scalarPieces(of grapheme: Substring) -> [String] {
        var pieces: [String] = []
        var piece = String.UnicodeScalarView()
        var bytes = 0
        for scalar in grapheme.unicodeScalars {
            let size = UTF8.width(scalar)
            if bytes + size > maxTokenBytes {
                pieces.append(String(piece))
                piece = String.UnicodeScalarView()
                bytes = 0
            }
            piece.append(scalar)
            bytes += size
        }
        if !piece.isEmpty { pieces.append(String(piece)) }
        return pieces
    }
}
