/// What a document keeps from one tail read to the next, so that reading the open tail after each
/// chunk costs about the chunk, not the open blocks.
///
/// A read builds a *snapshot*: a copy of the live parser (sharing its closed blocks and the bytes
/// of its open ones) that reads the pending line and closes everything virtually. The snapshot is
/// kept until the live parser takes its next line (`revision`). Until then, each chunk only
/// lengthens the pending line, and:
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
    /// The snapshot's closed top-level nodes, its link definitions, and whether the tail itself
    /// defines some (then settled blocks are rebuilt with them, and no value is reused).
    var closed: [BlockNode] = []
    var references: [String: LinkReference] = [:]
    var definesReferences = false
    /// The snapshot left the pending line aside: its tail does not depend on it.
    var ignoresPending = false
    /// The block the pending line went to, when more bytes at its end only lengthen that block's
    /// text; where in the pending line its part starts.
    var deferredLeaf: BlockNode?
    var deferredOffset = 0
    /// The snapshot's spine leaf: the node whose value is the tail's last block.
    var leafNode: BlockNode?
    var leaf = TailLeaf()
    /// The last tail.
    var blocks: [Block] = []

    /// The spine leaf under `top` (the last closed top-level node): following the last child of
    /// block quotes, lists and items down to a paragraph, code block or table that belongs to the
    /// snapshot. The nodes on the way are marked `isSpine`.
    static func spineLeaf(under top: BlockNode?) -> BlockNode? {
        var chain: [BlockNode] = []
        var current = top
        while let node = current, node.isSnapshotCopy {
            chain.append(node)
            switch node.kind {
            case .blockQuote, .list, .item:
                current = node.children.last
            case .paragraph, .codeBlock, .table:
                for member in chain { member.isSpine = true }
                return node
            default:
                return nil
            }
        }
        return nil
    }

    /// Whether the deferred block's value depends on its last line in ways the parser does not
    /// track: a paragraph that may start with a link reference definition or a task marker, or
    /// whose last line may be a table header being typed.
    static func leafMayChangeShape(_ node: BlockNode, options: MarkdownOptions) -> Bool {
        guard node.kind == .paragraph else { return false }
        if node.firstTextByte == UInt8(ascii: "[") { return true }
        return options.tables && ByteClass.trimmed(node.pendingPart).first == UInt8(ascii: "|")
    }
}
