/// A single-pass HTML tokenizer over bytes, tolerant as browsers are: every input gives tokens,
/// none an error.
///
/// Each byte is read once (``work`` counts them): a tag to its `>` (quotes respected), a comment to
/// its `-->`, the raw text of `script`, `style`, `title` and the like to their end tag, and an
/// unterminated one of these to the end of the input, as a browser does. Text comes out undecoded
/// (entities are the reader's job), and attributes are read only for the tags ``wantsAttributes``
/// names, so a page of a million tags makes no attribute strings.
///
/// ```swift
/// var tokenizer = HTMLTokenizer(Array("<p class=x>a &amp; b</p>".utf8))
/// while let token = tokenizer.next() { print(token) }
/// // startTag("p"), text("a &amp; b"), endTag("p")
/// ```
struct HTMLTokenizer {
    enum Token {
        /// Text between tags, entities not yet decoded.
        case text(ArraySlice<UInt8>)
        /// A start tag, its name in ASCII lowercase; attributes (names lowercased) only when asked for.
        case startTag(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case endTag(name: String)
        /// The content of a raw-text element (`script`, `style`, `title` …), right after its start tag.
        case rawText(ArraySlice<UInt8>)
    }

    /// Elements whose content is text up to their end tag, never markup.
    static let rawTextElements: Set<String> = [
        "script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript",
    ]

    private let bytes: [UInt8]
    private var position = 0
    /// A token read after text, returned by the next call.
    private var pending: Token?
    /// The raw-text element whose content comes next, after its start tag.
    private var rawTextElement: [UInt8]?
    /// The tags whose attributes are read.
    var wantsAttributes: Set<String> = ["meta"]
    /// The bytes looked at so far: about one per byte of input.
    private(set) var work = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private enum Markup {
        case token(Token)
        /// A comment, doctype or processing instruction: read and dropped.
        case skipped
        /// Not markup: a literal `<`.
        case literal
    }

    mutating func next() -> Token? {
        if let token = pending {
            pending = nil
            return token
        }
        if let element = rawTextElement {
            rawTextElement = nil
            return rawText(until: element)
        }
        var start = position
        while position < bytes.count {
            work += 1
            guard bytes[position] == UInt8(ascii: "<") else {
                position += 1
                continue
            }
            let markupStart = position
            switch markup() {
            case .literal:
                position += 1
            case .skipped:
                if markupStart > start { return .text(bytes[start..<markupStart]) }
                start = position
            case .token(let token):
                guard markupStart > start else { return token }
                pending = token
                return .text(bytes[start..<markupStart])
            }
        }
        return position > start ? .text(bytes[start..<position]) : nil
    }

    /// Reads the markup at `position` (a `<`), moving past it unless it is a literal `<`.
    private mutating func markup() -> Markup {
        let open = position
        guard open + 1 < bytes.count else { return .literal }
        let next = bytes[open + 1]
        switch next {
        case UInt8(ascii: "!"):
            if open + 3 < bytes.count, bytes[open + 2] == UInt8(ascii: "-"), bytes[open + 3] == UInt8(ascii: "-") {
                position = endOfComment(from: open + 2)
            } else {
                position = after(UInt8(ascii: ">"), from: open + 2)
            }
            return .skipped
        case UInt8(ascii: "?"):
            position = after(UInt8(ascii: ">"), from: open + 2)
            return .skipped
        case UInt8(ascii: "/"):
            guard open + 2 < bytes.count, Self.isLetter(bytes[open + 2]) else {
                position = after(UInt8(ascii: ">"), from: open + 2)  // `</>` or a bogus comment
                return .skipped
            }
            position = open + 2
            let name = readName()
            guard readAttributes(collecting: false) != nil else {
                position = bytes.count  // a tag cut off by the end of the input is dropped, as browsers do
                return .skipped
            }
            return .token(.endTag(name: String(decoding: name, as: UTF8.self)))
        default:
            guard Self.isLetter(next) else { return .literal }
            position = open + 1
            let nameBytes = readName()
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard let (attributes, selfClosing) = readAttributes(collecting: wantsAttributes.contains(name)) else {
                position = bytes.count
                return .skipped
            }
            if Self.rawTextElements.contains(name) { rawTextElement = nameBytes }
            return .token(.startTag(name: name, attributes: attributes, selfClosing: selfClosing))
        }
    }

    /// A tag name from `position`, lowercased, up to whitespace, `/` or `>`.
    private mutating func readName() -> [UInt8] {
        var name: [UInt8] = []
        while position < bytes.count {
            let c = bytes[position]
            if Self.isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { break }
            work += 1
            name.append(Self.lowercased(c))
            position += 1
        }
        return name
    }

    /// Reads attributes up to and past the tag's `>`; `nil` when the input ends first.
    private mutating func readAttributes(
        collecting: Bool
    ) -> (
        attributes: [(name: String, value: String)], selfClosing: Bool
    )? {
        var attributes: [(name: String, value: String)] = []
        var slashBefore = false
        while position < bytes.count {
            work += 1
            let c = bytes[position]
            if c == UInt8(ascii: ">") {
                position += 1
                return (attributes, slashBefore)
            }
            if Self.isSpace(c) || c == UInt8(ascii: "/") {
                slashBefore = c == UInt8(ascii: "/")
                position += 1
                continue
            }
            slashBefore = false
            let nameStart = position
            position += 1
            while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: "/"),
                bytes[position] != UInt8(ascii: ">"), bytes[position] != UInt8(ascii: "=")
            {
                work += 1
                position += 1
            }
            let nameEnd = position
            skipSpaces()
            var value: ArraySlice<UInt8> = []
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skipSpaces()
                guard position < bytes.count else { return nil }
                let quote = bytes[position]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    let valueStart = position + 1
                    let end = after(quote, from: valueStart)
                    guard end <= bytes.count, bytes[end - 1] == quote, end > valueStart else { return nil }
                    value = bytes[valueStart..<(end - 1)]
                    position = end
                } else {
                    let valueStart = position
                    while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") {
                        work += 1
                        position += 1
                    }
                    value = bytes[valueStart..<position]
                }
            }
            if collecting {
                let name = String(decoding: bytes[nameStart..<nameEnd].map(Self.lowercased), as: UTF8.self)
                attributes.append((name, String(decoding: value, as: UTF8.self)))
            }
        }
        return nil
    }

    private mutating func skipSpaces() {
        while position < bytes.count, Self.isSpace(bytes[position]) {
            work += 1
            position += 1
        }
    }

    /// The position after the first `byte` at or after `start`, or the end of the input.
    private mutating func after(_ byte: UInt8, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            work += 1
            if bytes[i] == byte { return i + 1 }
            i += 1
        }
        return bytes.count
    }

    /// The position after the comment whose `--` opener is at `start`: after `-->` or `--!>`
    /// (`<!-->` closes at once), or the end of the input.
    private mutating func endOfComment(from start: Int) -> Int {
        var i = start
        while i + 2 < bytes.count {
            work += 1
            if bytes[i] == UInt8(ascii: "-"), bytes[i + 1] == UInt8(ascii: "-") {
                if bytes[i + 2] == UInt8(ascii: ">") { return i + 3 }
                if i + 3 < bytes.count, bytes[i + 2] == UInt8(ascii: "!"), bytes[i + 3] == UInt8(ascii: ">") {
                    return i + 4
                }
            }
            i += 1
        }
        return bytes.count
    }

    /// The raw text from `position` to the end tag of `element` (left for the next call), or to the
    /// end of the input.
    private mutating func rawText(until element: [UInt8]) -> Token {
        let start = position
        while position < bytes.count {
            work += 1
            if bytes[position] == UInt8(ascii: "<"), position + 1 < bytes.count,
                bytes[position + 1] == UInt8(ascii: "/"), closes(element, at: position + 2)
            {
                return .rawText(bytes[start..<position])
            }
            position += 1
        }
        return .rawText(bytes[start..<position])
    }

    /// Whether `element`'s name, then whitespace, `/`, `>` or the end, is at `index` (any case).
    private mutating func closes(_ element: [UInt8], at index: Int) -> Bool {
        guard index + element.count <= bytes.count else { return false }
        for (offset, c) in element.enumerated() {
            work += 1
            if Self.lowercased(bytes[index + offset]) != c { return false }
        }
        let end = index + element.count
        guard end < bytes.count else { return true }
        let c = bytes[end]
        return Self.isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">")
    }

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
    static func lowercased(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
