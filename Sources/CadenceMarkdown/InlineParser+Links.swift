/// Links, images and citations: the bracket stack.
extension InlineParser {
    mutating func addBracket(_ node: Int, index: Int, isImage: Bool) {
        if !brackets.isEmpty { brackets[brackets.count - 1].bracketAfter = true }
        brackets.append(Bracket(node: node, previousDelimiter: lastDelimiter, index: index, isImage: isImage))
    }

    /// `[`: a citation in citation mode, else a bracket opener. Returns `false` to stop at a held-back citation.
    mutating func parseOpenBracket() -> Bool {
        if options.citations {
            switch scanCitation() {
            case .citation(let numbers, let end):
                let node = append(.citation)
                setExtra(node, Extra(numbers: numbers))
                pos = end
                return true
            case .incomplete where closesOpenConstructs:
                pos = subject.count
                return false
            default: break
            }
        }
        pos += 1
        addBracket(appendText(pos - 1, pos), index: pos - 1, isImage: false)
        return true
    }

    enum CitationScan { case none, incomplete, citation([Int], end: Int) }

    /// `[12]` or `[1][2]…` at `pos`, not followed by `(`; `incomplete` when the subject ends inside one.
    func scanCitation() -> CitationScan {
        var numbers: [Int] = []
        var i = pos
        while i < subject.count, subject[i] == UInt8(ascii: "[") {
            var j = i + 1
            var value = 0
            while j < subject.count, ByteClass.isDigit(subject[j]), j - i <= 4 {
                value = value * 10 + Int(subject[j] - 0x30)
                j += 1
            }
            if j == subject.count { return .incomplete }
            guard j > i + 1, subject[j] == UInt8(ascii: "]") else { break }
            numbers.append(value)
            i = j + 1
        }
        guard !numbers.isEmpty else { return .none }
        if i < subject.count, subject[i] == UInt8(ascii: "(") { return .none }
        return .citation(numbers, end: i)
    }

    static func isNumericLabel(_ label: String) -> Bool {
        !label.isEmpty && label.utf8.allSatisfy(ByteClass.isDigit)
    }

    mutating func parseCloseBracket() {
        pos += 1
        let startPos = pos
        guard let opener = brackets.last else {
            appendText(startPos - 1, startPos)
            return
        }
        guard opener.isActive else {
            appendText(startPos - 1, startPos)
            brackets.removeLast()
            return
        }
        var destination: String?
        var title: String?
        var matched = false
        var pendingTarget = false
        // `](…` or `][…` may resolve differently once more text arrives, unless fully resolved now.
        var resolvedFully = false
        let blockedBefore = safetyBlocked
        if startPos < subject.count, subject[startPos] == UInt8(ascii: "(") || subject[startPos] == UInt8(ascii: "[") {
            safetyBlocked = true
        }
        if peek() == UInt8(ascii: "(") {
            let destStart = LinkSyntax.skipSpacesAndNewline(subject, pos + 1)
            if let (url, destEnd) =
                destinationRun.scan(subject, destStart, work: &work) ?? emptyDestination(destStart)
            {
                var i = LinkSyntax.skipSpacesAndNewline(subject, destEnd)
                var linkTitle: String?
                if i > destEnd, let (t, titleEnd) = LinkSyntax.scanTitle(subject, i, work: &work) {
                    linkTitle = t
                    i = LinkSyntax.skipSpacesAndNewline(subject, titleEnd)
                }
                if i < subject.count, subject[i] == UInt8(ascii: ")") {
                    destination = url
                    title = linkTitle
                    matched = true
                    resolvedFully = true
                    pos = i + 1
                }
            }
            if !matched && closesOpenConstructs && !opener.isImage && lastCloseParen < pos {
                pendingTarget = true
                matched = true
                pos = subject.count
            }
        }
        if !matched {
            let beforeLabel = pos
            var label: ArraySlice<UInt8>?
            if let end = LinkSyntax.scanLabel(subject, pos, work: &work), end - pos > 2 {
                label = subject[(pos + 1)..<(end - 1)]
                pos = end
                resolvedFully = true
            } else {
                if let end = LinkSyntax.scanLabel(subject, pos, work: &work) {  // "[]" collapsed
                    pos = end
                    resolvedFully = true
                }
                if !opener.bracketAfter { label = subject[(opener.index + 1)..<(startPos - 1)] }
                if pos == beforeLabel { pos = startPos }
            }
            if let label {
                work += label.count
                let key = TextEscapes.normalizeLabel(label)
                if !key.isEmpty && !(options.citations && Self.isNumericLabel(key)) {
                    if let reference = references[key] {
                        destination = reference.destination
                        title = reference.title
                        matched = true
                    } else if label.count <= 999 {
                        misses.append(key)
                    }
                }
            }
            if !matched { pos = startPos }
        }
        if resolvedFully && matched { safetyBlocked = blockedBefore }
        guard matched else {
            brackets.removeLast()
            pos = startPos
            appendText(startPos - 1, startPos)
            return
        }
        let link = newNode(opener.isImage ? .image : .link)
        setExtra(link, Extra(destination: pendingTarget ? nil : destination, title: title))
        moveSiblings(after: opener.node, until: -1, into: link)
        appendChild(0, link)
        processEmphasis(stackBottom: opener.previousDelimiter)
        brackets.removeLast()
        unlink(opener.node)
        if !opener.isImage {
            // Links may not contain links: every link opener below goes inactive. Below the first one
            // already inactive, all are (an earlier link did this), so the walk stops there and each
            // opener is visited once: `[` × 50 000 then `[a](b)` × 10 000 stays linear.
            for k in brackets.indices.reversed() where !brackets[k].isImage {
                work += 1
                guard brackets[k].isActive else { break }
                brackets[k].isActive = false
            }
        }
    }

    /// `()` with nothing inside: an empty destination.
    private func emptyDestination(_ at: Int) -> (url: String, end: Int)? {
        at < subject.count && subject[at] == UInt8(ascii: ")") ? ("", at) : nil
    }
}
