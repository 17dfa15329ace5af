/// The inlines of the open paragraph, kept from read to read: only the text after the last stable
/// point is parsed again, and most reads parse nothing.
///
/// The inline parser reports a *stable point* (`InlineParser.safePoint`): a position after a space
/// before which nothing can change however the text goes on (no opener, bracket, backtick run or
/// `<` waits for more). The inlines of the text before it are final. They stay at the start of the
/// value: `finalInlines` whole inlines, then `finalTextBytes` bytes of the text inline that follows
/// (a final text run that later text merges with). A read cuts the last value back to that final
/// part and appends the inlines of the rest, so the bytes parsed per read are those after the last
/// stable point, and the value grows in place when the reader has let go of the last one.
///
/// Most reads add plain words: when the new bytes hold nothing with a meaning of its own, and the
/// last parse ended in a text (or a code span left open) that such bytes only lengthen, they are
/// appended to that inline — inside the emphasis left open around it, if any — and nothing is
/// parsed (`appendPlainText`). After a complete construct (a citation, a link, a code span) they
/// start a new text. A stable point among them moves the final part without a parse too.
///
/// Parsing the text from the start gives the same inlines: the tests compare every read with a
/// rebuild from scratch (`MarkdownDocument.freshTail()`).
struct OpenParagraphInlines {
    /// Bytes of the text, after its leading whitespace, whose inlines are final.
    var finalBytes = 0
    /// The length of the text at the last read: a shorter text is a different one.
    var textCount = 0
    /// Whole final inlines at the start of the last value.
    var finalInlines = 0
    /// UTF-8 bytes at the start of the text inline after them that are final (0: none).
    var finalTextBytes = 0

    /// How the last value ends, when plain bytes appended to its text only lengthen its last inline.
    struct OpenEnd {
        /// The rest's length (the bytes after the final part, without trailing whitespace).
        var restCount: Int
        /// The inline the new bytes go to.
        var target: InlineParser.EndTarget
        /// The rest had no byte the parser treats specially: it is one text, or texts and autolinks.
        var restIsPlain: Bool
        /// The rest holds a byte that may start an autolink (`:`, `@`, `.`).
        var mayLink: Bool
        /// A stable point may follow: no opener, bracket or the like is left open.
        var endIsSafe: Bool
        /// How many inlines the last value has.
        var inlineCount: Int
    }
    var openEnd: OpenEnd?

    /// Kept from read to read, with their capacity.
    private var rest: [UInt8] = []
    private var run: [UInt8] = []
    private var parser: InlineParser?

    mutating func update(
        _ text: LeafText, previous: consuming [Inline]?, options: MarkdownOptions,
        references: [String: LinkReference], work: inout Int
    ) -> [Inline] {
        // Moved, not copied: the arrays and strings of the last value must stay uniquely referenced.
        var base = consume previous
        if base == nil || text.count < textCount || base!.count < finalInlines + (finalTextBytes > 0 ? 1 : 0) {
            base = nil
            reset()
        }
        if openEnd != nil, var inlines = Self.take(&base) {
            switch appendPlainText(text, to: &inlines, options: options, work: &work) {
            case .appended: return inlines
            case .notApplicable: base = consume inlines
            case .lost: reset()
            }
        }
        guard var result = keptFinalPart(of: Self.take(&base)) else {
            // Our own last value did not have the expected shape: start again.
            reset()
            return update(text, previous: nil, options: options, references: references, work: &work)
        }
        let start = text.leadingWhitespace + finalBytes
        text.copyBytes(from: start, into: &rest)
        work += rest.count
        var trimmed = ByteClass.trimmed(rest[...])
        let special = trimmed.contains(where: InlineParser.isSpecial)
        var target = InlineParser.EndTarget.text
        var endIsSafe = true
        let safePoint: Int
        if special {
            if parser == nil || parser!.references.count != references.count {
                parser = InlineParser(options: options, references: references)
            }
            parser!.closesOpenConstructs = true
            Self.append(parser!.parse(rest[...]), to: &result)
            safePoint = parser!.safePoint
            target = parser!.endTarget
            endIsSafe = parser!.endIsSafe
            work += parser!.work
            parser!.work = 0
        } else {
            Self.append(Self.linkified(trimmed, options, work: &work), to: &result)
            safePoint = Self.plainSafePoint(trimmed, from: 1)
        }
        if safePoint > 0 {
            // The inlines of the newly final bytes are the first inlines of the rest.
            let final: [Inline]
            if special {
                parser!.closesOpenConstructs = false
                final = parser!.parse(rest[..<safePoint], trimsEnd: false)
                work += parser!.work
                parser!.work = 0
            } else {
                final = Self.linkified(rest[..<safePoint], options, work: &work)
            }
            advanceFinalPart(over: final, bytes: safePoint)
            trimmed = trimmed[(trimmed.startIndex + safePoint)...]
        }
        openEnd =
            target == .none
            ? nil
            : OpenEnd(
                restCount: trimmed.count, target: target, restIsPlain: !special,
                mayLink: trimmed.contains(where: Self.mayStartAutolink), endIsSafe: endIsSafe,
                inlineCount: result.count)
        textCount = text.count
        return result
    }

    private mutating func advanceFinalPart(over final: [Inline], bytes: Int) {
        for inline in final {
            if case .text(let s) = inline {
                finalTextBytes += s.utf8.count
            } else {
                if finalTextBytes > 0 { finalInlines += 1 }
                finalTextBytes = 0
                finalInlines += 1
            }
        }
        finalBytes += bytes
    }

    enum AppendResult { case appended, notApplicable, lost }

    /// The common read: the new bytes only lengthen the last inline. Appends them there (`.appended`),
    /// or changes nothing (`.notApplicable`) when they need the parser; `.lost` if the last value
    /// did not have the shape recorded (then it is no longer usable).
    private mutating func appendPlainText(
        _ text: LeafText, to inlines: inout [Inline], options: MarkdownOptions, work: inout Int
    ) -> AppendResult {
        guard let end = openEnd, inlines.count == end.inlineCount else { return .notApplicable }
        let start = text.leadingWhitespace + finalBytes
        var stop = text.count
        while stop > start && ByteClass.isASCIIWhitespace(text[stop - 1]) { stop -= 1 }
        // The text only grew at its end, so its bytes up to the last rest's end are unchanged.
        let from = start + end.restCount
        guard stop >= from else { return .notApplicable }
        let added: ArraySlice<UInt8>
        if let slice = text.contiguous(from: from, to: stop) {
            added = slice
        } else {
            text.copyBytes(from: from, into: &rest)
            rest.removeLast(text.count - stop)
            added = rest[...]
        }
        work += added.count + 1
        // Bytes that start or end a construct need the parser; `)`, `>` and `;` can end a link
        // target, a tag or an entity that the rest left open.
        var addedMayLink = false
        for c in added {
            if InlineParser.isSpecial(c) || (!end.restIsPlain && Self.mayEndConstruct(c)) { return .notApplicable }
            if Self.mayStartAutolink(c) { addedMayLink = true }
        }
        // After a construct, the new bytes are a run of their own; `(` right after brackets may
        // make a link of them.
        let isNewRun = end.target == .after
        if isNewRun && added.first == UInt8(ascii: "(") { return .notApplicable }
        let mayLink =
            options.autolinks && (isNewRun ? addedMayLink : end.target == .text && (end.mayLink || addedMayLink))
        if mayLink {
            // Autolinks look at the whole run of text, which is checked again, in full: appended
            // bytes can also undo a link (`d@a.b` then `-`).
            if isNewRun {
                run.removeAll(keepingCapacity: true)
            } else {
                guard copyLastRun(of: inlines) else { return .notApplicable }
            }
            run += added
            work += run.count
            let linked = InlineAutolinks.linkify(run, work: &work)
            guard linked.count == 1, case .text? = linked.first else { return .notApplicable }
        }
        // A stable point can only be among the new bytes: the rest had none.
        var safePoint = 0
        if end.endIsSafe {
            var k = stop - 1
            while k > start + max(end.restCount, 1) - 1 {
                if text[k - 1] == 0x20 && !ByteClass.isASCIIWhitespace(text[k]) {
                    safePoint = k - start
                    break
                }
                k -= 1
            }
        }
        // The new final part ends inside the last text: it must be a top-level text (nothing open
        // around it, `endIsSafe`), and with an autolink byte, a whole run (checked above).
        if safePoint > 0 && !end.restIsPlain && !(isNewRun || end.target == .text && Self.endsWithText(inlines)) {
            return .notApplicable
        }
        if isNewRun && !added.isEmpty {
            inlines.append(.text(ByteClass.string(added)))
            openEnd?.target = .text
            openEnd?.inlineCount = inlines.count
        } else if !added.isEmpty {
            guard let last = inlines.popLast(),
                let appended = Self.appending(ByteClass.string(added), toInnermostOf: consume last, target: end.target)
            else { return .lost }
            inlines.append(appended)
        }
        var restCount = stop - start
        if safePoint > 0 && !end.restIsPlain {
            // The rest held constructs: every inline but the last is final now, and so is the last
            // text up to the stable point, whose bytes after it are new plain ones, as written.
            guard case .text(let last)? = inlines.last else { return .lost }
            finalInlines = inlines.count - 1
            finalTextBytes = last.utf8.count - (restCount - safePoint)
            finalBytes += safePoint
            openEnd?.restIsPlain = true
            restCount -= safePoint
        } else if safePoint > 0 {
            if mayLink {
                var final: [UInt8] = []
                text.copyBytes(from: start, into: &final)
                final.removeLast(final.count - safePoint)
                advanceFinalPart(over: Self.linkified(final[...], options, work: &work), bytes: safePoint)
            } else {
                // Plain bytes without a link: one more text run, all final.
                finalTextBytes += safePoint
                finalBytes += safePoint
            }
            restCount -= safePoint
            guard inlines.count == finalInlines + 1 else {
                // A link among the final bytes (it cannot be, the rest was one text): parse again next time.
                reset()
                textCount = text.count
                return .appended
            }
        }
        openEnd?.restCount = restCount
        if safePoint > 0 {
            // The rest is now the new bytes after the stable point.
            var k = start + safePoint
            var linkByte = false
            while k < stop && !linkByte {
                linkByte = Self.mayStartAutolink(text[k])
                k += 1
            }
            openEnd?.mayLink = linkByte
        } else {
            // After a construct, only the new run matters for autolinks.
            openEnd?.mayLink = (end.mayLink && !isNewRun) || addedMayLink
        }
        textCount = text.count
        return .appended
    }

    /// Copies into `run` the bytes of the run of text that `inlines` end with, after the final
    /// part. `false` unless the last inline is a top-level text that no autolink cut from the start
    /// of its run (an inline before it that is a link may be one).
    private mutating func copyLastRun(of inlines: [Inline]) -> Bool {
        guard case .text(var last)? = inlines.last else { return false }
        if inlines.count >= 2, case .link = inlines[inlines.count - 2] { return false }
        // The last text may begin with the final part's text, which ends after a space: a link
        // cannot reach across it.
        let skip = inlines.count == finalInlines + 1 ? finalTextBytes : 0
        run.removeAll(keepingCapacity: true)
        last.withUTF8 { bytes in
            if skip < bytes.count { run.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[skip...])) }
        }
        return true
    }

    static func endsWithText(_ inlines: [Inline]) -> Bool {
        guard case .text? = inlines.last else { return false }
        return true
    }

    /// `inline` with `suffix` appended to its innermost last text (or code span), descending
    /// through emphasis; `nil` when it does not end with one. Each level is taken apart before
    /// the next, so that the strings grow in place.
    static func appending(
        _ suffix: String, toInnermostOf inline: consuming Inline, target: InlineParser.EndTarget
    ) -> Inline? {
        var value = consume inline
        var children: [Inline] = []
        var wrap: (([Inline]) -> Inline)?
        switch value {
        case .emphasis(let inner): (children, wrap) = (inner, Inline.emphasis)
        case .strong(let inner): (children, wrap) = (inner, Inline.strong)
        case .strikethrough(let inner): (children, wrap) = (inner, Inline.strikethrough)
        default: break
        }
        if let wrap {
            value = .softBreak  // the children are referenced from here only
            guard let last = children.popLast(), let new = appending(suffix, toInnermostOf: consume last, target: target)
            else { return nil }
            children.append(new)
            return wrap(children)
        }
        if target == .text, case .text(var s) = value {
            value = .softBreak
            s += suffix
            return .text(s)
        }
        if target == .code, case .code(var s) = value {
            value = .softBreak
            s += suffix
            return .code(s)
        }
        return nil
    }

    private mutating func reset() {
        finalBytes = 0
        finalInlines = 0
        finalTextBytes = 0
        openEnd = nil
    }

    /// The last value cut back to its final part, or `nil` when it does not have its shape.
    private func keptFinalPart(of previous: consuming [Inline]?) -> [Inline]? {
        guard var inlines = consume previous else { return finalInlines + finalTextBytes == 0 ? [] : nil }
        let keep = finalInlines + (finalTextBytes > 0 ? 1 : 0)
        guard inlines.count >= keep else { return nil }
        inlines.removeSubrange(keep...)
        if finalTextBytes > 0 {
            guard var last = Self.text(of: inlines.removeLast()), last.utf8.count >= finalTextBytes else {
                return nil
            }
            if last.utf8.count > finalTextBytes {
                last.removeSubrange(last.utf8.index(last.startIndex, offsetBy: finalTextBytes)...)
            }
            inlines.append(.text(last))
        }
        return inlines
    }

    /// A byte that an autolink needs (`InlineAutolinks.linkify` looks no further without one).
    static func mayStartAutolink(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ":") || c == UInt8(ascii: "@") || c == UInt8(ascii: ".")
    }

    /// A byte that can end a link target, a tag or an entity.
    static func mayEndConstruct(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ")") || c == UInt8(ascii: ">") || c == UInt8(ascii: ";")
    }

    /// Text without markup as inlines: one text, or texts and GFM autolinks.
    static func linkified(_ bytes: ArraySlice<UInt8>, _ options: MarkdownOptions, work: inout Int) -> [Inline] {
        if bytes.isEmpty { return [] }
        guard options.autolinks else { return [.text(ByteClass.string(bytes))] }
        var out: [Inline] = []
        InlineAutolinks.linkify(bytes, into: &out, work: &work)
        return out
    }

    /// Where the inline parser puts the stable point of text without markup: at the last byte
    /// that is not whitespace and follows a space (`InlineParser.parseString`), at or after `from`.
    static func plainSafePoint(_ text: ArraySlice<UInt8>, from: Int) -> Int {
        guard text.count > 1 else { return 0 }
        var k = text.endIndex - 1
        while k >= text.startIndex + max(from, 1) {
            if text[k - 1] == 0x20 && !ByteClass.isASCIIWhitespace(text[k]) { return k - text.startIndex }
            k -= 1
        }
        return 0
    }

    /// `result + inlines`, merging a text at the end of `result` with a text at the start of `inlines`.
    static func append(_ inlines: [Inline], to result: inout [Inline]) {
        var items = inlines[...]
        if case .text(let right)? = items.first, case .text? = result.last,
            var left = text(of: result.removeLast())
        {
            left += right
            result.append(.text(left))
            items = items.dropFirst()
        }
        result += items
    }

    /// Moves the value out of `value`, leaving `nil`.
    static func take<Value>(_ value: inout Value?) -> Value? {
        var taken: Value?
        swap(&taken, &value)
        return taken
    }

    static func text(of inline: consuming Inline) -> String? {
        guard case .text(let s) = inline else { return nil }
        return s
    }
}
