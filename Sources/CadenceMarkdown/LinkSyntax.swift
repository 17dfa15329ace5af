/// A link reference definition's target.
struct LinkReference: Sendable, Hashable {
    var destination: String
    var title: String?
}

/// Scanners for link labels, destinations and titles, shared by inline links and reference definitions.
enum LinkSyntax {
    /// The end (after `]`) of a link label starting at `pos` (a `[`), or `nil`. Adds the bytes it
    /// looks at to `work`, as the scans below do.
    static func scanLabel(_ b: [UInt8], _ pos: Int, work: inout Int) -> Int? {
        guard pos < b.count, b[pos] == UInt8(ascii: "[") else { return nil }
        var i = pos + 1
        defer { work += i - pos }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\") {
                i += (i + 1 < b.count) ? 2 : 1
            } else if c == UInt8(ascii: "[") {
                return nil
            } else if c == UInt8(ascii: "]") {
                return i - pos <= 1000 ? i + 1 : nil
            } else {
                i += 1
            }
            if i - pos > 1001 { return nil }
        }
        return nil
    }

    /// Skips spaces and tabs, at most one line ending, then spaces and tabs.
    static func skipSpacesAndNewline(_ b: [UInt8], _ pos: Int) -> Int {
        var i = pos
        while i < b.count, ByteClass.isSpaceOrTab(b[i]) { i += 1 }
        if i < b.count, b[i] == 0x0A {
            i += 1
            while i < b.count, ByteClass.isSpaceOrTab(b[i]) { i += 1 }
        }
        return i
    }

    /// A link destination at `pos`: the normalized URL and the end, or `nil`.
    static func scanDestination(_ b: [UInt8], _ pos: Int, work: inout Int) -> (url: String, end: Int)? {
        guard pos <= b.count else { return nil }
        if pos < b.count, b[pos] == UInt8(ascii: "<") {
            var i = pos + 1
            defer { work += i - pos }
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: ">") {
                    return (TextEscapes.normalizeURL(TextEscapes.unescape(b[(pos + 1)..<i])), i + 1)
                }
                if c == UInt8(ascii: "<") || c == 0x0A || c == 0x0D { return nil }
                if c == UInt8(ascii: "\\"), i + 1 < b.count, ByteClass.isASCIIPunctuation(b[i + 1]) {
                    i += 2
                } else {
                    i += 1
                }
            }
            return nil
        }
        var i = pos
        defer { work += i - pos }
        var parens = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\"), i + 1 < b.count, ByteClass.isASCIIPunctuation(b[i + 1]) {
                i += 2
            } else if c == UInt8(ascii: "(") {
                // Nesting is limited (as cmark does) so that failed scans stay linear.
                parens += 1
                if parens > 32 { return nil }
                i += 1
            } else if c == UInt8(ascii: ")") {
                if parens < 1 { break }
                parens -= 1
                i += 1
            } else if c <= 0x20 || c == 0x7F {
                break
            } else {
                i += 1
            }
        }
        guard i > pos, parens == 0 else { return nil }
        return (TextEscapes.normalizeURL(TextEscapes.unescape(b[pos..<i])), i)
    }

    /// A link title at `pos`: the unescaped title and the end, or `nil`.
    static func scanTitle(_ b: [UInt8], _ pos: Int, work: inout Int) -> (title: String, end: Int)? {
        guard pos < b.count else { return nil }
        let open = b[pos]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""): close = open
        case UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return nil
        }
        var i = pos + 1
        defer { work += i - pos }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\"), i + 1 < b.count, ByteClass.isASCIIPunctuation(b[i + 1]) {
                i += 2
                continue
            }
            if c == close {
                return (ByteClass.string(TextEscapes.unescape(b[(pos + 1)..<i])), i + 1)
            }
            if open == UInt8(ascii: "("), c == open { return nil }
            i += 1
        }
        return nil
    }

    /// Parses one link reference definition at the start of `b[pos...]`.
    /// Returns the normalized label, the reference and the end, or `nil`.
    static func scanDefinition(
        _ b: [UInt8], _ pos: Int, work: inout Int
    ) -> (label: String, reference: LinkReference, end: Int)? {
        guard let labelEnd = scanLabel(b, pos, work: &work) else { return nil }
        let label = TextEscapes.normalizeLabel(b[(pos + 1)..<(labelEnd - 1)])
        guard !label.isEmpty, labelEnd < b.count, b[labelEnd] == UInt8(ascii: ":") else { return nil }
        let destStart = skipSpacesAndNewline(b, labelEnd + 1)
        guard let (url, destEnd) = scanDestination(b, destStart, work: &work) else { return nil }
        // An empty destination is only allowed as <>.
        if destEnd == destStart { return nil }
        let beforeTitle = destEnd
        let titleStart = skipSpacesAndNewline(b, beforeTitle)
        if titleStart > beforeTitle, let (title, titleEnd) = scanTitle(b, titleStart, work: &work),
            let end = lineEnd(b, titleEnd)
        {
            return (label, LinkReference(destination: url, title: title), end)
        }
        guard let end = lineEnd(b, beforeTitle) else { return nil }
        return (label, LinkReference(destination: url, title: nil), end)
    }

    /// The position after trailing spaces and a line ending, if only those follow `pos` on its line.
    private static func lineEnd(_ b: [UInt8], _ pos: Int) -> Int? {
        var i = pos
        while i < b.count, ByteClass.isSpaceOrTab(b[i]) { i += 1 }
        if i == b.count { return i }
        return b[i] == 0x0A ? i + 1 : nil
    }
}
