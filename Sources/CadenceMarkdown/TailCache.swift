/// What a document keeps from one tail read to the next, so that reading the open tail after each
/// chunk costs about the chunk, not the open blocks.
///
/// A read builds a *snapshot*: a copy of the live parser (sharing its closed blocks and the bytes
/// of its open ones) that reads the pending line and closes everything virtually. The snapshot is
/// kept until the live parser takes its next line (`revision`), or held-back blocks commit (a
/// settle releases it: the last tail shows them). Until then, each chunk only lengthens the
/// pending line, and:
/// - a table ignores the pending line (a row waits for its newline): the last tail stands;
/// - a pending line whose reading cannot change with more bytes at its end (the parser's
///   `lineEndSensitive`: no blank so far, no marker or fence run reaching the end, no heading, no
///   possible reference definition or table header) only grows the block it went to
///   (`deferredLeaf`): the snapshot is read again with a longer pending part.
/// Either way the blocks off the spine keep their values, cached on the snapshot's nodes, and the
/// last block is updated by `TailLeaf` from the last tail's.
struct TailCache {
    /// The live parser's revision the snapshot was built at; -1 before the first read.
    var revision = -1
    /// How long the pending line was at the last read.
    var pendingCount = -1
    /// The snapshot's closed top-level nodes, its link definitions, and the labels the tail itself
    /// defines (then the settled blocks that missed one are rebuilt with them, and no value is reused).
    var closed: [BlockNode] = []
    var references: [String: LinkReference] = [:]
    var definedLabels: [String] = []
    var definesReferences: Bool { !definedLabels.isEmpty }
    /// The snapshot left the pending line aside: its tail does not depend on it.
    var ignoresPending = false
    /// The block the pending line went to, when more bytes at its end only lengthen that block's
    /// text; where in the pending line its part starts.
    var deferredLeaf: BlockNode?
    var deferredOffset = 0
    /// The deferred block's text before the pending line.
    var leafHead: ArraySlice<UInt8> = []
    /// Where the last snapshot's scans of the pending line stopped (for the same revision only).
    var lineScans = LineScans()
    /// The snapshot's spine leaf: the node whose value is the tail's last block.
    var leafNode: BlockNode?
    var leaf = TailLeaf()
    /// The last tail.
    var blocks: [Block] = []

    /// Lets go of the snapshot before the live parser takes a line: its clones share the bytes of
    /// the live open blocks (and a table's rows), which would otherwise be copied when they grow.
    /// The last tail and `leaf` stay, for the next read to start from.
    mutating func releaseSnapshot() {
        revision = -1
        lineScans = LineScans()
        closed = []
        references = [:]
        deferredLeaf = nil
        leafHead = []
        leafNode = nil
    }

    /// The spine leaf under `top` (the last closed top-level node): following the last child of
    /// block quotes, lists and items down to a paragraph, code block or table that belongs to the
    /// snapshot. The nodes on the way are marked `isSpine`.
    static func spineLeaf(under top: BlockNode?) -> BlockNode? {
        var current = top
        while let node = current, node.isSnapshotCopy {
            switch node.kind {
            case .blockQuote, .list, .item:
                current = node.children.last
            case .paragraph, .codeBlock, .table, .heading:
                // Found: mark the way down to it (no array of the chain, a second walk).
                var member = top
                while let step = member {
                    step.isSpine = true
                    member = step === node ? nil : step.children.last
                }
                return node
            default:
                return nil
            }
        }
        return nil
    }

    /// Whether the deferred block's value depends on its last line in ways the parser does not
    /// track: a paragraph that may start with a link reference definition or a task marker, or
    /// whose last line is only whitespace so far. (A last line that starts with `|` shows as a
    /// pending table header, which `TailLeaf` updates as the line grows: it keeps that shape, or
    /// the update fails and the snapshot's blocks are built again.)
    static func leafMayChangeShape(_ node: BlockNode, options: MarkdownOptions) -> Bool {
        guard node.kind == .paragraph else { return false }
        if node.firstTextByte == UInt8(ascii: "[") && mayStartDefinition(LeafText(node)) { return true }
        // A line that is only whitespace so far (a vertical tab or form feed starts a paragraph line,
        // and `trimmed` skips it) may still go on with the `|` of a table's header row.
        return options.tables && ByteClass.trimmed(node.pendingPart).isEmpty
    }

    /// Whether a paragraph's text, which starts with `[`, may start with a link reference
    /// definition or a task marker, now or once its last line goes on: its first label is not
    /// closed yet, or is followed by `:`, or it reads `[ ]`, `[x]` or `[X]`.
    static func mayStartDefinition(_ text: LeafText) -> Bool {
        // The last byte of a text with a pending part is the line ending still to come.
        let known = text.hasPending ? text.count - 1 : text.count
        guard known >= 3 else { return true }
        if text[2] == UInt8(ascii: "]"),
            text[1] == UInt8(ascii: " ") || text[1] == UInt8(ascii: "x") || text[1] == UInt8(ascii: "X")
        {
            return true
        }
        var i = 1
        while i < known && i <= 1001 {
            switch text[i] {
            case UInt8(ascii: "\\"):
                i += 2
            case UInt8(ascii: "["):
                return false
            case UInt8(ascii: "]"):
                return i + 1 >= known || text[i + 1] == UInt8(ascii: ":")
            default:
                i += 1
            }
        }
        return i <= 1001
    }
}
