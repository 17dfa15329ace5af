/// A block's text: `content` between `textStart` and `textEnd`, then, in a tail snapshot, the pending
/// line's part and a line ending.
///
/// A tail snapshot clones the open blocks of the live parser, and a clone shares its `content` with
/// the live block until one of them writes to it. Appending the pending line to the clone's
/// `content` would copy every byte of an open paragraph or code fence on every read, so the
/// snapshot parser keeps that line apart (`pendingPart`), and closing a block moves `textStart` and
/// `textEnd` instead of cutting `content`. The text is read through `LeafText`, which copies only
/// the bytes asked for.
extension BlockNode {
    /// The text without a pending part (all the text of a block that has none).
    var text: ArraySlice<UInt8> {
        content[textStart..<(textEnd < 0 ? content.count : textEnd)]
    }

    /// The whole text, copied when the pending part has to be joined to it.
    var fullText: ArraySlice<UInt8> {
        guard hasPendingPart else { return text }
        var bytes = Array(text)
        bytes += pendingPart
        bytes.append(0x0A)
        return bytes[...]
    }

    var isTextEmpty: Bool { !hasPendingPart && text.isEmpty }

    /// The first byte of the text, if any.
    var firstTextByte: UInt8? {
        text.first ?? (hasPendingPart ? pendingPart.first ?? 0x0A : nil)
    }

    /// Moves the pending part into `content` (copying it), for the rare closings that cut the text
    /// in ways the offsets cannot express.
    func joinPendingPart() {
        guard hasPendingPart else { return }
        if textEnd >= 0 {
            content.removeSubrange(textEnd...)
            textEnd = -1
        }
        content += pendingPart
        content.append(0x0A)
        pendingPart = []
        hasPendingPart = false
    }
}

/// Random access to a block's text without joining its parts: the bytes of `content` in range,
/// then the pending part and its line ending.
struct LeafText {
    let head: ArraySlice<UInt8>
    let pending: ArraySlice<UInt8>
    let hasPending: Bool

    init(head: ArraySlice<UInt8>, pending: ArraySlice<UInt8>) {
        self.head = head
        self.pending = pending
        hasPending = true
    }

    init(_ node: BlockNode) {
        head = node.text
        pending = node.pendingPart
        hasPending = node.hasPendingPart
    }

    /// The bytes from `start` to `end` when they lie in one of the parts, without copying.
    func contiguous(from start: Int, to end: Int) -> ArraySlice<UInt8>? {
        if end <= head.count { return head[(head.startIndex + start)..<(head.startIndex + end)] }
        guard hasPending, start >= head.count, end - head.count <= pending.count else { return nil }
        return pending[(pending.startIndex + start - head.count)..<(pending.startIndex + end - head.count)]
    }

    var count: Int { head.count + (hasPending ? pending.count + 1 : 0) }

    subscript(_ i: Int) -> UInt8 {
        if i < head.count { return head[head.startIndex + i] }
        let k = i - head.count
        return k < pending.count ? pending[pending.startIndex + k] : 0x0A
    }

    /// The bytes from `start` (counted from the start of the text) to the end, copied once.
    func bytes(from start: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count - start)
        if start < head.count { out += head[(head.startIndex + start)...] }
        if hasPending {
            let k = max(0, start - head.count)
            if k < pending.count { out += pending[(pending.startIndex + k)...] }
            if start <= count - 1 { out.append(0x0A) }
        }
        return out
    }

    /// The bytes from `start` to the end, into `out` (which keeps its capacity).
    func copyBytes(from start: Int, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        if start < head.count { out += head[(head.startIndex + start)...] }
        if hasPending {
            let k = max(0, start - head.count)
            if k < pending.count { out += pending[(pending.startIndex + k)...] }
            if start <= count - 1 { out.append(0x0A) }
        }
    }

    /// How many spaces, tabs and line endings the text starts with.
    var leadingWhitespace: Int {
        var i = 0
        let n = count
        while i < n && ByteClass.isASCIIWhitespace(self[i]) { i += 1 }
        return i
    }
}
