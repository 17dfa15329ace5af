/// Recognizes raw HTML: inline tags, HTML block start and end conditions (CommonMark 0.31.2 §4.6, §6.6).
enum HTMLSyntax {
    static let blockTagNames: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html",
        "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup",
        "option", "p", "param", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
        "title", "tr", "track", "ul",
    ]
    static let rawTextTagNames: Set<String> = ["script", "pre", "textarea", "style"]

    // MARK: Inline

    /// Where, in one subject, a search for each closer found none: a search from that position or a
    /// later one cannot find one either, so it is not made again. Without it, an unclosed opener
    /// repeated (`a <!-- ` × 10 000) searched the rest of the subject once per opener: quadratic.
    /// cmark keeps the same memo. It holds for one subject only: the inline parser starts a new one
    /// with every parse, so text appended since (a streamed answer) is searched again.
    struct MissingClosers {
        /// `-->` of a comment, `?>` of a processing instruction, `]]>` of a CDATA section, `>` of a
        /// declaration: the position from which each is known to be missing (`Int.max`: not known).
        var comment = Int.max
        var processingInstruction = Int.max
        var cdata = Int.max
        var declaration = Int.max
    }

    private static let commentEnd = Array("-->".utf8)
    private static let processingInstructionEnd = Array("?>".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let declarationEnd = Array(">".utf8)

    /// The end of the raw HTML construct starting at `pos` (a `<`), or `nil`. Adds the bytes it looks
    /// at to `work`; a closer that `missing` says is absent is not searched for.
    static func scanTag(_ b: [UInt8], _ pos: Int, missing: inout MissingClosers, work: inout Int) -> Int? {
        let n = b.count
        guard pos + 1 < n, b[pos] == UInt8(ascii: "<") else { return nil }
        let c = b[pos + 1]
        if ByteClass.isLetter(c) { return scanOpenTag(b, pos, limit: n, work: &work) }
        if c == UInt8(ascii: "/") { return scanClosingTag(b, pos, limit: n, work: &work) }
        if c == UInt8(ascii: "?") {
            return find(b, from: pos + 2, processingInstructionEnd, missingFrom: &missing.processingInstruction, work: &work)
        }
        if c == UInt8(ascii: "!") {
            if hasPrefix(b, pos, "<!--") {
                if hasPrefix(b, pos, "<!-->") { return pos + 5 }
                if hasPrefix(b, pos, "<!--->") { return pos + 6 }
                return find(b, from: pos + 4, commentEnd, missingFrom: &missing.comment, work: &work)
            }
            if hasPrefix(b, pos, "<![CDATA[") {
                return find(b, from: pos + 9, cdataEnd, missingFrom: &missing.cdata, work: &work)
            }
            if pos + 2 < n, ByteClass.isLetter(b[pos + 2]) {
                return find(b, from: pos + 3, declarationEnd, missingFrom: &missing.declaration, work: &work)
            }
        }
        return nil
    }

    /// The end of an open tag at `pos`, or `nil`; adds the bytes it looks at to `work`.
    static func scanOpenTag(_ b: [UInt8], _ pos: Int, limit n: Int, work: inout Int) -> Int? {
        var i = pos + 1
        // The furthest byte looked at: the scan of a quoted value or of what follows an attribute
        // name runs ahead of `i`.
        var j = i
        defer { work += max(i, j) - pos }
        guard i < n, ByteClass.isLetter(b[i]) else { return nil }
        while i < n, ByteClass.isAlphanumeric(b[i]) || b[i] == UInt8(ascii: "-") { i += 1 }
        while true {
            let wsStart = i
            while i < n, ByteClass.isASCIIWhitespace(b[i]) { i += 1 }
            guard i < n else { return nil }
            let c = b[i]
            if i > wsStart, ByteClass.isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") {
                i += 1
                while i < n, isAttributeNameByte(b[i]) { i += 1 }
                j = i
                while j < n, ByteClass.isASCIIWhitespace(b[j]) { j += 1 }
                if j < n, b[j] == UInt8(ascii: "=") {
                    j += 1
                    while j < n, ByteClass.isASCIIWhitespace(b[j]) { j += 1 }
                    guard j < n else { return nil }
                    let q = b[j]
                    if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                        j += 1
                        while j < n, b[j] != q { j += 1 }
                        guard j < n else { return nil }
                        i = j + 1
                    } else {
                        let start = j
                        while j < n, isUnquotedValueByte(b[j]) { j += 1 }
                        guard j > start else { return nil }
                        i = j
                    }
                }
                continue
            }
            if c == UInt8(ascii: "/") {
                return i + 1 < n && b[i + 1] == UInt8(ascii: ">") ? i + 2 : nil
            }
            return c == UInt8(ascii: ">") ? i + 1 : nil
        }
    }

    /// The end of a closing tag at `pos`, or `nil`; adds the bytes it looks at to `work`.
    static func scanClosingTag(_ b: [UInt8], _ pos: Int, limit n: Int, work: inout Int) -> Int? {
        var i = pos + 2
        defer { work += i - pos }
        guard i < n, ByteClass.isLetter(b[i]) else { return nil }
        while i < n, ByteClass.isAlphanumeric(b[i]) || b[i] == UInt8(ascii: "-") { i += 1 }
        while i < n, ByteClass.isASCIIWhitespace(b[i]) { i += 1 }
        return i < n && b[i] == UInt8(ascii: ">") ? i + 1 : nil
    }

    private static func isAttributeNameByte(_ c: UInt8) -> Bool {
        ByteClass.isAlphanumeric(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
            || c == UInt8(ascii: "-")
    }

    private static func isUnquotedValueByte(_ c: UInt8) -> Bool {
        !(c <= 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "=")
            || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: "`"))
    }

    static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, _ pos: Int, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard pos + count <= b.count else { return false }
        return prefix.withUTF8Buffer { p in
            for k in 0..<count where b[pos + k] != p[k] { return false }
            return true
        }
    }

    static func hasPrefix(_ b: [UInt8], _ pos: Int, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard pos + count <= b.count else { return false }
        return prefix.withUTF8Buffer { p in
            for k in 0..<count where b[pos + k] != p[k] { return false }
            return true
        }
    }

    /// The position after the first occurrence of `needle` at or after `from`.
    static func find(_ b: [UInt8], from: Int, _ needle: [UInt8]) -> Int? {
        var missingFrom = Int.max
        var work = 0
        return find(b, from: from, needle, missingFrom: &missingFrom, work: &work)
    }

    /// As ``find(_:from:_:)``, and records in `missingFrom` where a search found none (at or after
    /// `missingFrom`, there is nothing to find). Adds the positions it looks at to `work`.
    static func find(_ b: [UInt8], from: Int, _ needle: [UInt8], missingFrom: inout Int, work: inout Int) -> Int? {
        guard from < missingFrom else { return nil }
        var i = from
        defer { work += i - from + 1 }
        while i + needle.count <= b.count {
            if b[i] == needle[0] {
                var k = 1
                while k < needle.count && b[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i + needle.count }
            }
            i += 1
        }
        missingFrom = from
        return nil
    }

    // MARK: Blocks

    /// The HTML block type (1–7) a line starting at `pos` (a `<`) opens, or `nil`.
    static func blockStart(_ line: [UInt8], _ pos: Int, allowType7: Bool, work: inout Int) -> Int? {
        let n = line.count
        guard pos + 1 < n, line[pos] == UInt8(ascii: "<") else { return nil }
        if hasPrefix(line, pos, "<!--") { return 2 }
        if line[pos + 1] == UInt8(ascii: "?") { return 3 }
        if hasPrefix(line, pos, "<![CDATA[") { return 5 }
        if line[pos + 1] == UInt8(ascii: "!"), pos + 2 < n, ByteClass.isLetter(line[pos + 2]) { return 4 }
        let closing = line[pos + 1] == UInt8(ascii: "/")
        var i = pos + (closing ? 2 : 1)
        let nameStart = i
        while i < n, ByteClass.isAlphanumeric(line[i]) || line[i] == UInt8(ascii: "-") { i += 1 }
        guard i > nameStart, ByteClass.isLetter(line[nameStart]) else { return nil }
        let name = ByteClass.string(line[nameStart..<i]).lowercased()
        let next: UInt8? = i < n ? line[i] : nil
        if !closing, rawTextTagNames.contains(name),
            next == nil || next == UInt8(ascii: ">") || ByteClass.isASCIIWhitespace(next!)
        {
            return 1
        }
        if blockTagNames.contains(name) {
            if next == nil || next == UInt8(ascii: ">") || ByteClass.isASCIIWhitespace(next!) { return 6 }
            if next == UInt8(ascii: "/"), i + 1 < n, line[i + 1] == UInt8(ascii: ">") { return 6 }
        }
        guard allowType7, !rawTextTagNames.contains(name) else { return nil }
        let end = closing ? scanClosingTag(line, pos, limit: n, work: &work) : scanOpenTag(line, pos, limit: n, work: &work)
        guard var j = end else { return nil }
        while j < n, ByteClass.isASCIIWhitespace(line[j]) { j += 1 }
        return j == n ? 7 : nil
    }

    /// When ``blockStart(_:_:allowType7:work:)`` finds no block at `pos`, whether more bytes at the end of
    /// the line could still make it find one (the tag, or what follows it, is not complete yet).
    static func blockStartMayChange(_ line: [UInt8], _ pos: Int, allowType7: Bool, work: inout Int) -> Bool {
        let n = line.count
        // Short enough to be the start of `<![CDATA[`, `<!--` or `<?`.
        guard pos + 9 < n else { return true }
        let closing = line[pos + 1] == UInt8(ascii: "/")
        var i = pos + (closing ? 2 : 1)
        while i < n, ByteClass.isAlphanumeric(line[i]) || line[i] == UInt8(ascii: "-") { i += 1 }
        if i == n || (line[i] == UInt8(ascii: "/") && i + 1 == n) { return true }
        guard allowType7 else { return false }
        // Type 7 needs a whole tag followed by nothing but whitespace.
        guard let end = closing ? scanClosingTag(line, pos, limit: n, work: &work) : scanOpenTag(line, pos, limit: n, work: &work) else {
            return true
        }
        var j = end
        while j < n, ByteClass.isASCIIWhitespace(line[j]) { j += 1 }
        return j == n
    }

    /// Whether `line` meets the end condition of HTML block `type` (1–5).
    static func blockEnds(_ type: Int, _ line: ArraySlice<UInt8>) -> Bool {
        let b = Array(line)
        switch type {
        case 1:
            let lower = ByteClass.string(b).lowercased()
            return lower.contains("</script>") || lower.contains("</pre>") || lower.contains("</style>")
                || lower.contains("</textarea>")
        case 2: return find(b, from: 0, commentEnd) != nil
        case 3: return find(b, from: 0, processingInstructionEnd) != nil
        case 4: return b.contains(UInt8(ascii: ">"))
        case 5: return find(b, from: 0, cdataEnd) != nil
        default: return false
        }
    }
}
