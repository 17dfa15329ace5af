/// Emphasis, strong emphasis and strikethrough: the delimiter run algorithm.
extension InlineParser {
    mutating func handleDelimiter(_ cc: UInt8) {
        let start = pos
        while pos < subject.count && subject[pos] == cc { pos += 1 }
        let count = pos - start
        let node = appendText(start, pos)
        if cc == UInt8(ascii: "~") && count > 2 { return }
        let before = ByteClass.scalar(in: subject, before: start) ?? "\n"
        let after = ByteClass.scalar(in: subject, at: pos) ?? "\n"
        let afterIsWhitespace = ByteClass.isUnicodeWhitespace(after)
        let afterIsPunctuation = ByteClass.isUnicodePunctuation(after)
        let beforeIsWhitespace = ByteClass.isUnicodeWhitespace(before)
        let beforeIsPunctuation = ByteClass.isUnicodePunctuation(before)
        let leftFlanking = !afterIsWhitespace && (!afterIsPunctuation || beforeIsWhitespace || beforeIsPunctuation)
        let rightFlanking = !beforeIsWhitespace && (!beforeIsPunctuation || afterIsWhitespace || afterIsPunctuation)
        let canOpen: Bool
        let canClose: Bool
        if cc == UInt8(ascii: "_") {
            canOpen = leftFlanking && (!rightFlanking || beforeIsPunctuation)
            canClose = rightFlanking && (!leftFlanking || afterIsPunctuation)
        } else {
            canOpen = leftFlanking
            canClose = rightFlanking
        }
        guard canOpen || canClose else { return }
        delimiters.append(
            Delimiter(
                cc: cc, count: count, originalCount: count, node: node, previous: lastDelimiter,
                canOpen: canOpen, canClose: canClose))
        let index = delimiters.count - 1
        if lastDelimiter != -1 { delimiters[lastDelimiter].next = index }
        lastDelimiter = index
        if canOpen { openers += 1 }
    }

    mutating func removeDelimiter(_ index: Int) {
        let d = delimiters[index]
        if d.canOpen { openers -= 1 }
        if d.previous != -1 { delimiters[d.previous].next = d.next }
        if d.next == -1 { lastDelimiter = d.previous } else { delimiters[d.next].previous = d.previous }
    }

    private func openersBottomIndex(_ d: Delimiter) -> Int {
        switch d.cc {
        case UInt8(ascii: "_"): return 2 + (d.canOpen ? 3 : 0) + d.originalCount % 3
        case UInt8(ascii: "*"): return 8 + (d.canOpen ? 3 : 0) + d.originalCount % 3
        default: return 14 + d.originalCount
        }
    }

    /// Matches closers with openers above `stackBottom`, wrapping what lies between.
    mutating func processEmphasis(stackBottom: Int, keepOpeners: Bool = false) {
        if openersBottom.count != 17 { openersBottom = [Int](repeating: stackBottom, count: 17) }
        for k in 0..<17 { openersBottom[k] = stackBottom }
        // The first delimiter above the bottom. None when the last one is the bottom: a link with no
        // delimiter in its text must not walk the whole stack below it (`[b](c)* ` repeated was quadratic).
        //
        // Delimiters are numbered in the order of the text and keep their numbers when removed, so
        // "above" is a comparison of numbers: a bottom (the stack's, or an openers-bottom mark) that
        // a match has since removed still bounds the walk. Compared by identity, a removed mark was
        // never met and the search went on to the start of the stack (`~*` between punctuation then
        // `**`, repeated line after line, was quadratic).
        var closer = lastDelimiter > stackBottom ? lastDelimiter : -1
        while closer != -1 && delimiters[closer].previous > stackBottom {
            work += 1
            closer = delimiters[closer].previous
        }
        while closer != -1 {
            work += 1
            let d = delimiters[closer]
            guard d.canClose else {
                closer = d.next
                continue
            }
            let bottomIndex = openersBottomIndex(d)
            var opener = d.previous
            var found = false
            while opener > stackBottom && opener > openersBottom[bottomIndex] {
                work += 1
                let o = delimiters[opener]
                if d.cc == UInt8(ascii: "~") {
                    if o.cc == d.cc && o.canOpen && o.count == d.count {
                        found = true
                        break
                    }
                } else {
                    let oddMatch =
                        (d.canOpen || o.canClose) && d.originalCount % 3 != 0
                        && (o.originalCount + d.originalCount) % 3 == 0
                    if o.cc == d.cc && o.canOpen && !oddMatch {
                        found = true
                        break
                    }
                }
                opener = o.previous
            }
            let oldCloser = closer
            if found {
                let kind: Kind
                let used: Int
                if d.cc == UInt8(ascii: "~") {
                    kind = .strikethrough
                    used = d.count
                } else {
                    used = d.count >= 2 && delimiters[opener].count >= 2 ? 2 : 1
                    kind = used == 1 ? .emphasis : .strong
                }
                let openerNode = delimiters[opener].node
                let closerNode = d.node
                delimiters[opener].count -= used
                delimiters[closer].count -= used
                dropLast(used, of: openerNode)
                dropLast(used, of: closerNode)
                let wrapper = newNode(kind)
                moveSiblings(after: openerNode, until: closerNode, into: wrapper)
                insertAfter(openerNode, wrapper)
                if delimiters[opener].next != closer {
                    delimiters[opener].next = closer
                    delimiters[closer].previous = opener
                }
                if delimiters[opener].count == 0 {
                    unlink(openerNode)
                    removeDelimiter(opener)
                }
                if delimiters[closer].count == 0 {
                    unlink(closerNode)
                    let next = delimiters[closer].next
                    removeDelimiter(closer)
                    closer = next
                }
            } else {
                closer = d.next
                openersBottom[bottomIndex] = delimiters[oldCloser].previous
                if !delimiters[oldCloser].canOpen { removeDelimiter(oldCloser) }
            }
        }
        guard !keepOpeners else { return }
        while lastDelimiter > stackBottom { removeDelimiter(lastDelimiter) }
    }

    /// Streaming: an opener still unmatched at the end wraps everything after it (`**bold` is bold to the end).
    /// Only clear openers count: an intraword run (`2*3`) could as well be literal, so it stays text.
    mutating func closeOpenDelimiters() {
        var index = lastDelimiter
        while index != -1 {
            let d = delimiters[index]
            let node = d.node
            if d.canOpen, !d.canClose, d.count > 0, nodes[node].parent == 0, nodes[node].next != -1 {
                let kind: Kind =
                    d.cc == UInt8(ascii: "~") ? .strikethrough : d.count >= 2 ? .strong : .emphasis
                let used = d.cc == UInt8(ascii: "~") ? d.count : min(d.count, 2)
                dropLast(used, of: node)
                let wrapper = newNode(kind)
                moveSiblings(after: node, until: -1, into: wrapper)
                insertAfter(node, wrapper)
                if text(node).isEmpty { unlink(node) }
            }
            index = d.previous
        }
        lastDelimiter = -1
    }
}
