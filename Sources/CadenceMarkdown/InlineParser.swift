/// Parses the inline content of one leaf block (CommonMark 0.31.2 §6 and the delimiter algorithm of its appendix),
/// with the GFM strikethrough and autolink extensions and citations.
///
/// Nodes live in an arena linked by index, so emphasis can wrap runs of siblings without copying.
struct InlineParser {
    enum Kind {
        case root, text, softBreak, lineBreak, code, html, emphasis, strong, strikethrough, link, image, citation
    }

    /// A node: plain data, so the arena is cheap to grow and free. Its text is `subject[start..<end]`
    /// unless `extra` points at decoded bytes; links and citations keep their data in `extras` too.
    struct Node {
        var kind: Kind
        var start = 0
        var end = 0
        var extra = -1
        var parent = -1
        var first = -1
        var last = -1
        var prev = -1
        var next = -1
    }

    struct Extra {
        var owned: [UInt8]?
        var destination: String?
        var title: String?
        var numbers: [Int] = []
    }

    struct Delimiter {
        var cc: UInt8
        var count: Int
        var originalCount: Int
        var node: Int
        var previous: Int
        var next = -1
        var canOpen: Bool
        var canClose: Bool
    }

    struct Bracket {
        var node: Int
        var previousDelimiter: Int
        var index: Int
        var isImage: Bool
        var isActive = true
        var bracketAfter = false
    }

    let options: MarkdownOptions
    let references: [String: LinkReference]
    /// Streaming: close what is still open at the end (`**bold` → bold), hold back a half-typed citation.
    var closesOpenConstructs: Bool
    var subject: [UInt8] = []
    var pos = 0
    var nodes: [Node] = [Node(kind: .root)]
    var extras: [Extra] = []
    var delimiters: [Delimiter] = []
    var lastDelimiter = -1
    var brackets: [Bracket] = []
    /// Normalized labels looked up without success: a later definition would change this block.
    var misses: [String] = []
    var failedBacktickLengths: Set<Int> = []
    /// HTML closers searched for in vain in this subject: each unclosed opener is scanned once.
    var missingClosers = HTMLSyntax.MissingClosers()
    /// The run of link destination bytes read last: each destination in it is found once.
    var destinationRun = LinkDestinationRun()
    /// Delimiter runs on the stack that can open.
    var openers = 0
    /// How many delimiters had been pushed when emphasis was last matched early.
    var delimitersProcessed = 0
    /// Something before `pos` may still change with more text: no later safe point.
    var safetyBlocked = false
    /// The last position (after a space) before which the inlines are final, or 0.
    var safePoint = 0
    /// Where the last `)` is (streaming only): a link with no `)` after it is still being typed.
    var lastCloseParen = -1
    /// Steps of work (`WorkCounter`): constructs parsed, bytes scanned, delimiters, brackets and nodes walked.
    var work = 0
    /// Scratch for `processEmphasis` and `build`, kept so that a parser reused for many blocks
    /// allocates them once.
    var openersBottom: [Int] = []
    var textRun: [UInt8] = []
    /// Streaming: where text appended to the subject would go, as found by the last parse (see
    /// `endTarget`), and whether a stable point could follow at the end.
    var endTarget = EndTarget.none
    var endIsSafe = false
    /// Streaming: the node of a code span left open to the end of the subject, if any.
    var openCodeNode = -1

    init(options: MarkdownOptions, references: [String: LinkReference], closesOpenConstructs: Bool = false) {
        self.options = options
        self.references = references
        self.closesOpenConstructs = closesOpenConstructs
    }

    /// Parses `content` into inlines. Leading whitespace is skipped; trailing whitespace too unless
    /// `trimsEnd` is false (for a prefix that ends at a safe point). A parser can be used again: its
    /// arrays keep their capacity.
    mutating func parse(_ content: ArraySlice<UInt8>, trimsEnd: Bool = true) -> [Inline] {
        subject.removeAll(keepingCapacity: true)
        subject += trimsEnd ? ByteClass.trimmed(content) : ByteClass.trimmedStart(content)
        work += content.count
        openers = 0
        delimitersProcessed = 0
        safetyBlocked = false
        safePoint = 0
        pos = 0
        nodes.removeAll(keepingCapacity: true)
        nodes.append(Node(kind: .root))
        extras.removeAll(keepingCapacity: true)
        delimiters.removeAll(keepingCapacity: true)
        lastDelimiter = -1
        brackets.removeAll(keepingCapacity: true)
        if !failedBacktickLengths.isEmpty { failedBacktickLengths.removeAll(keepingCapacity: true) }
        missingClosers = HTMLSyntax.MissingClosers()
        destinationRun = LinkDestinationRun()
        openCodeNode = -1
        var heldBack = false
        if closesOpenConstructs { lastCloseParen = subject.lastIndex(of: UInt8(ascii: ")")) ?? -1 }
        while pos < subject.count {
            if closesOpenConstructs, pos > 0, subject[pos - 1] == 0x20, !ByteClass.isASCIIWhitespace(subject[pos]),
                isSafe
            {
                safePoint = pos
            }
            if !parseInline() {
                heldBack = true
                break
            }
        }
        processEmphasis(stackBottom: -1, keepOpeners: closesOpenConstructs)
        // As `isSafe` at the end: every opener left is unmatched.
        endIsSafe =
            closesOpenConstructs && !heldBack && brackets.isEmpty && failedBacktickLengths.isEmpty && !safetyBlocked
            && openers == 0
        if closesOpenConstructs { closeOpenDelimiters() }
        endTarget = closesOpenConstructs && !heldBack ? findEndTarget() : .none
        return build(0, linkify: options.autolinks)
    }

    /// Where more text at the end of the subject would go, if it held no byte with a meaning of its
    /// own (none of `isSpecial`, and no `)`, `>` or `;`, which end link targets, tags and entities):
    /// into the last text or open code span, or (`after`) into a new text after the last node.
    enum EndTarget { case none, text, code, after }

    /// Follows the last node down through emphasis: a text node of the subject's last bytes, or a
    /// code span left open to the end, takes more such text unchanged in structure. A complete
    /// construct at the end, with nothing left open (a citation, a link or image with its target, a
    /// closed code span, inline HTML), is followed by a new text, unless that text starts with `(`
    /// (which the caller checks: brackets followed by `(` may be a link). Emphasis is not: the
    /// byte after its closing run decides whether the run closes (`__a__b`).
    private func findEndTarget() -> EndTarget {
        let top = nodes[0].last
        if endIsSafe, top != -1 {
            switch nodes[top].kind {
            case .citation, .html:
                return .after
            case .code:
                if top != openCodeNode { return .after }
            case .link, .image:
                if nodes[top].extra >= 0, extras[nodes[top].extra].destination != nil { return .after }
            default:
                break
            }
        }
        guard let last = subject.last, !Self.isSpecial(last) else { return .none }
        var node = nodes[0].last
        while node != -1 {
            switch nodes[node].kind {
            case .emphasis, .strong, .strikethrough:
                node = nodes[node].last
            case .text:
                return nodes[node].extra == -1 && nodes[node].end == subject.count ? .text : .none
            case .code:
                return node == openCodeNode ? .code : .none
            default:
                return .none
            }
        }
        return .none
    }

    /// Inlines nest at most this deep; deeper content is flattened to its text, which keeps
    /// recursion over the tree bounded on hostile input (`*` × 100 000).
    static let maximumDepth = 100

    /// The children of `parent` as inlines, adjacent text merged; `linkify` applies GFM autolinks to text.
    mutating func build(_ parent: Int, linkify: Bool, depth: Int = 0) -> [Inline] {
        if depth >= Self.maximumDepth { return [.text(ByteClass.string(flattenedText(parent)))] }
        var out: [Inline] = []
        out.reserveCapacity(valueCount(under: parent))
        // A run of text is kept as a range of the subject while its nodes follow each other there,
        // and gathered in `textRun` otherwise. `textRun` is empty whenever a child is built, so the
        // levels below share it.
        var runStart = -1
        var runEnd = -1
        var gathered = false
        var child = nodes[parent].first
        while child != -1 {
            let node = nodes[child]
            switch node.kind {
            case .text:
                if node.extra == -1 && !gathered {
                    if runStart < 0 {
                        runStart = node.start
                        runEnd = node.end
                    } else if node.start == runEnd {
                        runEnd = node.end
                    } else {
                        textRun += subject[runStart..<runEnd]
                        textRun += subject[node.start..<node.end]
                        gathered = true
                    }
                } else {
                    if !gathered {
                        if runStart >= 0 { textRun += subject[runStart..<runEnd] }
                        gathered = true
                    }
                    textRun += text(child)
                }
            case .root:
                break
            default:
                flushText(&out, linkify: linkify, runStart: runStart, runEnd: runEnd, gathered: gathered)
                runStart = -1
                gathered = false
                switch node.kind {
                case .softBreak: out.append(.softBreak)
                case .lineBreak: out.append(.lineBreak)
                case .code: out.append(.code(ByteClass.string(text(child))))
                case .html: out.append(.html(ByteClass.string(text(child))))
                case .emphasis: out.append(.emphasis(build(child, linkify: linkify, depth: depth + 1)))
                case .strong: out.append(.strong(build(child, linkify: linkify, depth: depth + 1)))
                case .strikethrough: out.append(.strikethrough(build(child, linkify: linkify, depth: depth + 1)))
                case .link:
                    let extra = extras[node.extra]
                    out.append(
                        .link(
                            destination: extra.destination, title: extra.title,
                            build(child, linkify: false, depth: depth + 1)))
                case .image:
                    let extra = extras[node.extra]
                    out.append(
                        .image(
                            source: extra.destination ?? "", title: extra.title,
                            build(child, linkify: false, depth: depth + 1)))
                case .citation: out.append(.citation(extras[node.extra].numbers))
                case .text, .root: break
                }
            }
            child = node.next
        }
        flushText(&out, linkify: linkify, runStart: runStart, runEnd: runEnd, gathered: gathered)
        return out
    }

    /// About how many values `build` makes of `parent`'s children: one a child, one a run of text
    /// (more where a run holds an autolink), so that the array is allocated once.
    private func valueCount(under parent: Int) -> Int {
        var count = 0
        var afterText = false
        var child = nodes[parent].first
        while child != -1 {
            let isText = nodes[child].kind == .text
            if !(isText && afterText) { count += 1 }
            afterText = isText
            child = nodes[child].next
        }
        return count
    }

    /// Appends the pending run of text (a subject range, or `textRun`) to `out`.
    private mutating func flushText(_ out: inout [Inline], linkify: Bool, runStart: Int, runEnd: Int, gathered: Bool) {
        if gathered {
            if !textRun.isEmpty { emitText(textRun[...], into: &out, linkify: linkify) }
            textRun.removeAll(keepingCapacity: true)
        } else if runStart >= 0 && runEnd > runStart {
            emitText(subject[runStart..<runEnd], into: &out, linkify: linkify)
        }
    }

    private mutating func emitText(_ bytes: ArraySlice<UInt8>, into out: inout [Inline], linkify: Bool) {
        if linkify {
            InlineAutolinks.linkify(bytes, into: &out, work: &work)
        } else {
            out.append(.text(ByteClass.string(bytes)))
        }
    }

    // MARK: Scanning

    func peek(_ offset: Int = 0) -> UInt8? { pos + offset < subject.count ? subject[pos + offset] : nil }

    /// Parses one construct at `pos`; returns `false` to stop (a held-back tail).
    mutating func parseInline() -> Bool {
        work += 1
        let c = subject[pos]
        switch c {
        case 0x0A: parseNewline()
        case UInt8(ascii: "\\"): parseBackslash()
        case UInt8(ascii: "`"): parseBackticks()
        case UInt8(ascii: "*"), UInt8(ascii: "_"): handleDelimiter(c)
        case UInt8(ascii: "~"):
            if options.strikethrough { handleDelimiter(c) } else { parseString() }
        case UInt8(ascii: "["): return parseOpenBracket()
        case UInt8(ascii: "!"):
            if peek(1) == UInt8(ascii: "[") {
                pos += 2
                addBracket(appendText(pos - 2, pos), index: pos - 1, isImage: true)
            } else {
                pos += 1
                appendText(pos - 1, pos)
            }
        case UInt8(ascii: "]"): parseCloseBracket()
        case UInt8(ascii: "<"): parseAngle()
        case UInt8(ascii: "&"):
            if let (decoded, end) = TextEscapes.entity(in: subject, at: pos) {
                append(.text, decoded)
                pos = end
            } else {
                appendText(pos, pos + 1)
                pos += 1
            }
        default: parseString()
        }
        return true
    }

    /// The bytes that start or end an inline construct: a line ending, `\\`, `` ` ``, `*`, `_`, `~`,
    /// `[`, `]`, `!`, `<` and `&`, as two 64-bit masks (bytes 0–63 and 64–127).
    private static let specialLow: UInt64 = 1 << 0x0A | 1 << 0x21 | 1 << 0x26 | 1 << 0x2A | 1 << 0x3C
    private static let specialHigh: UInt64 =
        1 << (0x5B - 64) | 1 << (0x5C - 64) | 1 << (0x5D - 64) | 1 << (0x5F - 64) | 1 << (0x60 - 64)
        | 1 << (0x7E - 64)

    @inline(__always)
    static func isSpecial(_ c: UInt8) -> Bool {
        c < 64 ? specialLow >> c & 1 != 0 : c < 128 ? specialHigh >> (c - 64) & 1 != 0 : false
    }

    /// `isSpecial` of every byte, for the text scan: a load per byte instead of two range tests.
    private static let specialBytes: [Bool] = (0...255).map { isSpecial(UInt8($0)) }

    mutating func parseString() {
        let start = pos
        pos = Self.specialBytes.withUnsafeBufferPointer { special in
            subject.withUnsafeBufferPointer { b in
                var p = start + 1
                while p < b.count && !special[Int(b[p])] { p += 1 }
                return p
            }
        }
        work += pos - start
        appendText(start, pos)
        guard closesOpenConstructs, pos - start > 1, isSafe else { return }
        var k = pos - 1
        while k > start && k > safePoint {
            if subject[k - 1] == 0x20 && !ByteClass.isASCIIWhitespace(subject[k]) {
                safePoint = k
                return
            }
            k -= 1
        }
    }

    /// Nothing before this point can change however the text continues: no opener or bracket is
    /// waiting, no backtick run or `<` failed for lack of text, no link target was cut off.
    ///
    /// Delimiters are matched early here (closers only ever match earlier openers, so the result is
    /// the same as matching at the end); a small stack keeps this linear.
    var isSafe: Bool {
        mutating get {
            guard brackets.isEmpty && failedBacktickLengths.isEmpty && !safetyBlocked else { return false }
            if openers > 0 && delimiters.count > delimitersProcessed && openers <= 32 {
                processEmphasis(stackBottom: -1, keepOpeners: true)
                delimitersProcessed = delimiters.count
            }
            return openers == 0
        }
    }

    mutating func parseNewline() {
        pos += 1
        let last = nodes[0].last
        if last != -1, nodes[last].kind == .text, text(last).last == 0x20 {
            let bytes = text(last)
            let hard = bytes.count >= 2 && bytes[bytes.endIndex - 2] == 0x20
            var end = bytes.endIndex
            while end > bytes.startIndex && bytes[end - 1] == 0x20 { end -= 1 }
            dropLast(bytes.endIndex - end, of: last)
            append(hard ? .lineBreak : .softBreak)
        } else {
            append(.softBreak)
        }
        while pos < subject.count && ByteClass.isSpaceOrTab(subject[pos]) { pos += 1 }
    }

    mutating func parseBackslash() {
        pos += 1
        if let c = peek(), c == 0x0A {
            pos += 1
            append(.lineBreak)
            while pos < subject.count && ByteClass.isSpaceOrTab(subject[pos]) { pos += 1 }
        } else if let c = peek(), ByteClass.isASCIIPunctuation(c) {
            appendText(pos, pos + 1)
            pos += 1
        } else {
            appendText(pos - 1, pos)
        }
    }

    mutating func parseBackticks() {
        let start = pos
        while pos < subject.count && subject[pos] == UInt8(ascii: "`") { pos += 1 }
        let length = pos - start
        let afterOpen = pos
        if !failedBacktickLengths.contains(length) {
            var i = afterOpen
            while i < subject.count {
                if subject[i] != UInt8(ascii: "`") {
                    work += 1
                    i += 1
                    continue
                }
                let runStart = i
                while i < subject.count && subject[i] == UInt8(ascii: "`") { i += 1 }
                work += i - runStart
                if i - runStart == length {
                    append(.code, Self.codeSpanContent(subject[afterOpen..<runStart]))
                    pos = i
                    return
                }
            }
            failedBacktickLengths.insert(length)
        }
        if closesOpenConstructs && afterOpen < subject.count {
            openCodeNode = append(.code, Self.codeSpanContent(subject[afterOpen...]))
            pos = subject.count
            return
        }
        appendText(start, afterOpen)
    }

    static func codeSpanContent(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var content = raw.map { $0 == 0x0A ? UInt8(0x20) : $0 }
        if content.count >= 2, content.first == 0x20, content.last == 0x20, content.contains(where: { $0 != 0x20 }) {
            content.removeFirst()
            content.removeLast()
        }
        return content
    }

    mutating func parseAngle() {
        if let (url, end, isEmail) = Self.scanAutolink(subject, pos, work: &work) {
            let link = append(.link)
            setExtra(link, Extra(destination: TextEscapes.normalizeURL(Array(((isEmail ? "mailto:" : "") + url).utf8))))
            let text = newNode(.text, Array(url.utf8))
            appendChild(link, text)
            pos = end
        } else if let end = HTMLSyntax.scanTag(subject, pos, missing: &missingClosers, work: &work) {
            appendText(pos, end, kind: .html)
            pos = end
        } else {
            // `<` followed by what could start a tag may still become one.
            if let next = peek(1),
                ByteClass.isLetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!")
                    || next == UInt8(ascii: "?")
            {
                safetyBlocked = true
            }
            appendText(pos, pos + 1)
            pos += 1
        }
    }

    /// `<scheme:…>` or `<user@host>` at `pos`; adds the bytes it looks at to `work`.
    static func scanAutolink(_ b: [UInt8], _ pos: Int, work: inout Int) -> (url: String, end: Int, isEmail: Bool)? {
        var i = pos + 1
        var urlEnd = i
        defer { work += max(i, urlEnd) - pos }
        guard i < b.count else { return nil }
        if ByteClass.isLetter(b[i]) {
            var j = i + 1
            while j < b.count, j - i <= 32,
                ByteClass.isAlphanumeric(b[j]) || b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: ".")
                    || b[j] == UInt8(ascii: "-")
            {
                j += 1
            }
            urlEnd = j
            if j < b.count, b[j] == UInt8(ascii: ":"), (2...32).contains(j - i) {
                j += 1
                while j < b.count, b[j] > 0x20, b[j] != UInt8(ascii: "<"), b[j] != UInt8(ascii: ">") { j += 1 }
                urlEnd = j
                if j < b.count, b[j] == UInt8(ascii: ">") {
                    return (ByteClass.string(b[(pos + 1)..<j]), j + 1, false)
                }
            }
        }
        // Email
        let localStart = i
        while i < b.count, ByteClass.isAlphanumeric(b[i]) || Array(".!#$%&'*+/=?^_`{|}~-".utf8).contains(b[i]) {
            i += 1
        }
        guard i > localStart, i < b.count, b[i] == UInt8(ascii: "@") else { return nil }
        i += 1
        var labels = 0
        while true {
            let labelStart = i
            while i < b.count, ByteClass.isAlphanumeric(b[i]) || b[i] == UInt8(ascii: "-"), i - labelStart < 63 {
                i += 1
            }
            let length = i - labelStart
            guard length >= 1, ByteClass.isAlphanumeric(b[labelStart]), ByteClass.isAlphanumeric(b[i - 1]) else {
                return nil
            }
            labels += 1
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                continue
            }
            break
        }
        guard i < b.count, b[i] == UInt8(ascii: ">") else { return nil }
        return (ByteClass.string(b[(pos + 1)..<i]), i + 1, true)
    }
}
