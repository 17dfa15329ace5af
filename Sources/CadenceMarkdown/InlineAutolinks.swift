/// The GFM autolink extension: `www.` links, `http(s)://` and `ftp://` URLs, and email addresses in text.
enum InlineAutolinks {
    /// Text bytes as inlines, with `www.`, `http(s)://`, `ftp://` and email links made links. Adds
    /// the bytes looked at to `work`.
    static func linkify(_ b: [UInt8], work: inout Int) -> [Inline] {
        var out: [Inline] = []
        linkify(b[...], into: &out, work: &work)
        return out
    }

    /// Appends the inlines of text bytes to `out`: one text when no link can start in them.
    static func linkify(_ bytes: ArraySlice<UInt8>, into out: inout [Inline], work: inout Int) {
        bytes.withUnsafeBufferPointer { linkify($0, into: &out, work: &work) }
    }

    static func linkify(_ b: UnsafeBufferPointer<UInt8>, into out: inout [Inline], work: inout Int) {
        work += b.count
        guard mayLink(b) else {
            out.append(.text(String(decoding: b, as: UTF8.self)))
            return
        }
        var flushed = 0
        var i = 0
        // The scans of the last email and `www.` domain: a later candidate inside the bytes they
        // covered reads their result instead of scanning the same bytes again (`a@` × 10 000, or
        // `www._` × 10 000, would be quadratic).
        var emailScan = EmailScan()
        var domainScan = DomainScan()
        while i < b.count {
            var match: (start: Int, end: Int, url: String)?
            switch b[i] {
            case UInt8(ascii: "w"): match = www(b, i, &domainScan, work: &work)
            case UInt8(ascii: ":"): match = url(b, i, floor: flushed, work: &work)
            case UInt8(ascii: "@"): match = email(b, i, floor: flushed, &emailScan, work: &work)
            default: break
            }
            if let m = match {
                if m.start > flushed { out.append(.text(string(b, flushed, m.start))) }
                let text = string(b, m.start, m.end)
                out.append(.link(destination: TextEscapes.normalizeURL(Array(m.url.utf8)), title: nil, [.text(text)]))
                flushed = m.end
                i = m.end
            } else {
                i += 1
            }
        }
        if flushed < b.count { out.append(.text(string(b, flushed, b.count))) }
    }

    /// Whether a link may start in `b`: it holds an `@` (an email), a `://` (a URL) or a `www.`.
    /// Prose has a `.` in nearly every run of text, but seldom after `www`. Eight bytes are tested
    /// at a time for any of `@`, `:` and `.`; only a word that has one is looked at byte by byte.
    private static func mayLink(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return false }
        var i = 0
        while i + 8 <= b.count {
            let word = ByteWord(base, i)
            if word.holds(UInt8(ascii: ".")) || word.holds(UInt8(ascii: ":")) || word.holds(UInt8(ascii: "@")) {
                for k in i..<(i + 8) where mayStartLink(b, k) { return true }
            }
            i += 8
        }
        for k in i..<b.count where mayStartLink(b, k) { return true }
        return false
    }

    /// Whether the byte at `i` makes `b` worth a full scan: an `@`, the `:` of a `://`, or the `.` of a `www.`.
    private static func mayStartLink(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        switch b[i] {
        case UInt8(ascii: "@"): return true
        case UInt8(ascii: ":"): return HTMLSyntax.hasPrefix(b, i, "://")
        case UInt8(ascii: "."): return i >= 3 && HTMLSyntax.hasPrefix(b, i - 3, "www.")
        default: return false
        }
    }

    private static func string(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
    }

    private static func isHostByte(_ c: UInt8) -> Bool { c >= 0x80 || ByteClass.isAlphanumeric(c) }

    /// A byte a URL's domain may start with: not whitespace or ASCII punctuation (cmark-gfm's
    /// `is_valid_hostchar`, which also lets control characters through).
    private static func mayStartDomain(_ c: UInt8) -> Bool {
        c >= 0x80 || !(ByteClass.isASCIIWhitespace(c) || ByteClass.isASCIIPunctuation(c))
    }

    /// What a scan of a domain found: where it began and stopped, and what it saw in its last two
    /// labels. Where it stops does not depend on where it begins (every byte before the stop is one
    /// a domain may hold), so a scan beginning later, but before the last two labels, finds the same.
    struct DomainScan {
        var start = -1
        var stop = -1
        var lastDot = -1
        var secondLastDot = -1
        var underscoresLast = 0
        var underscoresPrevious = 0

        /// Whether a scan from `start` would find what this one found.
        func covers(_ start: Int) -> Bool { self.start <= start && start < secondLastDot }
    }

    /// The end of a valid domain starting at `start`, or `nil`; `requireDot` for `www.` links.
    /// Reuses `scan` when it covers `start`, and records the scan made otherwise.
    private static func domainEnd(
        _ b: UnsafeBufferPointer<UInt8>, _ start: Int, requireDot: Bool, _ scan: inout DomainScan, work: inout Int
    ) -> Int? {
        if !scan.covers(start) {
            scan = DomainScan(start: start)
            var i = start + 1
            while i < b.count - 1 {
                let c = b[i]
                if c == UInt8(ascii: "_") {
                    scan.underscoresLast += 1
                } else if c == UInt8(ascii: ".") {
                    scan.underscoresPrevious = scan.underscoresLast
                    scan.underscoresLast = 0
                    scan.secondLastDot = scan.lastDot
                    scan.lastDot = i
                } else if !isHostByte(c) && c != UInt8(ascii: "-") {
                    break
                }
                i += 1
            }
            work += i - start
            scan.stop = i
        }
        if scan.underscoresLast > 0 || scan.underscoresPrevious > 0 { return nil }
        if requireDot && scan.lastDot < 0 { return nil }
        return scan.stop
    }

    private static func extendPath(_ b: UnsafeBufferPointer<UInt8>, _ end: Int, work: inout Int) -> Int {
        var i = end
        while i < b.count && !ByteClass.isASCIIWhitespace(b[i]) && b[i] != UInt8(ascii: "<") { i += 1 }
        work += i - end
        return i
    }

    /// Trims trailing punctuation, unbalanced `)` and entity-like `&x;` from a link candidate.
    private static func trimEnd(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, work: inout Int) -> Int {
        work += 2 * (end - start)
        var end = end
        var opening = 0
        var closing = 0
        for i in start..<end {
            if b[i] == UInt8(ascii: "<") {
                end = i
                break
            }
            if b[i] == UInt8(ascii: "(") { opening += 1 } else if b[i] == UInt8(ascii: ")") { closing += 1 }
        }
        while end > start {
            switch b[end - 1] {
            case UInt8(ascii: ")"):
                if closing <= opening { return end }
                closing -= 1
                end -= 1
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                end -= 1
            case UInt8(ascii: ";"):
                var k = end - 2
                while k > start && ByteClass.isLetter(b[k]) { k -= 1 }
                if k < end - 2 && b[k] == UInt8(ascii: "&") { end = k } else { end -= 1 }
            default:
                return end
            }
        }
        return end
    }

    private static func www(
        _ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ domainScan: inout DomainScan, work: inout Int
    ) -> (Int, Int, String)? {
        guard HTMLSyntax.hasPrefix(b, i, "www.") else { return nil }
        if i > 0 {
            let p = b[i - 1]
            guard
                ByteClass.isASCIIWhitespace(p) || p == UInt8(ascii: "*") || p == UInt8(ascii: "_")
                    || p == UInt8(ascii: "~") || p == UInt8(ascii: "(")
            else { return nil }
        }
        guard let domain = domainEnd(b, i, requireDot: true, &domainScan, work: &work) else { return nil }
        let end = trimEnd(b, i, extendPath(b, domain, work: &work), work: &work)
        guard end > i else { return nil }
        return (i, end, "http://" + string(b, i, end))
    }

    private static func url(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, floor: Int, work: inout Int) -> (Int, Int, String)? {
        guard HTMLSyntax.hasPrefix(b, i, "://") else { return nil }
        var start = i
        while start > floor && ByteClass.isLetter(b[start - 1]) { start -= 1 }
        work += i - start
        let scheme = string(b, start, i).lowercased()
        guard scheme == "http" || scheme == "https" || scheme == "ftp" else { return nil }
        // The domain's first byte is checked too (`domainEnd` starts after it): like cmark-gfm, no
        // link in `https:// x` or `https://-x.com`. A space there would also let a link run past a
        // space, which the open paragraph's tail reads rely on never happening.
        // A domain after `://` cannot hold the `:` of another, so its scan is never reused.
        var scan = DomainScan()
        guard i + 3 < b.count, Self.mayStartDomain(b[i + 3]),
            let domain = domainEnd(b, i + 3, requireDot: false, &scan, work: &work)
        else { return nil }
        let end = trimEnd(b, start, extendPath(b, domain, work: &work), work: &work)
        guard end > i + 3 else { return nil }
        let text = string(b, start, end)
        return (start, end, text)
    }

    /// What the forward scan of an email address from an `@` found. Where it stops does not depend
    /// on where it begins, so a later `@` inside it has the same stop: it is the only `@` before the
    /// stop when it is the last, and a `.` follows it when the last `.` does.
    struct EmailScan {
        var start = -1
        var end = -1
        var lastAt = -1
        var lastDot = -1
    }

    private static func email(
        _ b: UnsafeBufferPointer<UInt8>, _ i: Int, floor: Int, _ scan: inout EmailScan, work: inout Int
    ) -> (Int, Int, String)? {
        var start = i
        while start > floor {
            let c = b[start - 1]
            guard
                ByteClass.isAlphanumeric(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
            else { break }
            start -= 1
        }
        work += i - start
        guard start < i else { return nil }
        if !(scan.start <= i && i < scan.end) {
            scan = EmailScan(start: i)
            var end = i
            while end < b.count {
                let c = b[end]
                if ByteClass.isAlphanumeric(c) {
                } else if c == UInt8(ascii: "@") {
                    scan.lastAt = end
                } else if c == UInt8(ascii: "."), end + 1 < b.count, ByteClass.isAlphanumeric(b[end + 1]) {
                    scan.lastDot = end
                } else if c != UInt8(ascii: "-") && c != UInt8(ascii: "_") {
                    break
                }
                end += 1
            }
            work += end - i
            scan.end = end
        }
        // Exactly one `@` (this one) and at least one `.` from here to the end.
        var end = scan.end
        guard end - i >= 2, scan.lastAt == i, scan.lastDot > i else { return nil }
        let last = b[end - 1]
        guard ByteClass.isLetter(last) || last == UInt8(ascii: ".") else { return nil }
        end = trimEnd(b, start, end, work: &work)
        guard end > i + 1 else { return nil }
        let text = string(b, start, end)
        return (start, end, "mailto:" + text)
    }
}
