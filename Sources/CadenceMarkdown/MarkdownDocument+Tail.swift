/// Reading the open tail: incrementally (`tail()`), or from scratch (`freshTail()`, which the tests
/// compare it with).
extension MarkdownDocument.Storage {
    /// The tail, reusing what the last read built (see `TailCache`).
    func tail() -> [Block] {
        inlineWork.steps += 1
        if tailCache.revision == revision {
            if pendingLine.count == tailCache.pendingCount || tailCache.ignoresPending {
                tailCache.pendingCount = pendingLine.count
                return tailCache.blocks
            }
            if let leaf = tailCache.deferredLeaf, pendingLine.count > tailCache.pendingCount {
                // Only the deferred block's last line grew: update its value in the last tail.
                leaf.pendingPart = pendingLine[tailCache.deferredOffset...]
                defer { leaf.pendingPart = [] }
                tailCache.pendingCount = pendingLine.count
                var blocks: [Block] = []
                swap(&blocks, &tailCache.blocks)
                if tailCache.leaf.updateInPlace(
                    leaf, blocks: &blocks, options: parser.options, references: tailCache.references, work: inlineWork)
                {
                    tailCache.blocks = blocks
                    return blocks
                }
                return materializeTail()
            }
        }
        let holder = buildSnapshot()
        let blocks = materializeTail()
        holder?.pendingPart = []  // the pending line keeps growing in place
        return blocks
    }

    /// Copies the live parser, reads the pending line into the copy and closes it virtually.
    /// Returns the node that holds part of the pending line.
    private func buildSnapshot() -> BlockNode? {
        var snapshot = parser.copy(asSnapshot: true)
        snapshot.defersLastLine = true
        let workBefore = snapshot.work
        var ignoresPending = false
        var sensitive = true
        if !pendingLine.isEmpty {
            if snapshot.tip.kind == .table {
                ignoresPending = true
            } else {
                snapshot.incorporate(line: pendingLine)
                sensitive = snapshot.lineEndSensitive
                snapshot.line = []  // the pending line keeps growing in place
            }
        }
        snapshot.finish()
        inlineWork.steps += snapshot.work - workBefore
        tailCache.revision = revision
        tailCache.pendingCount = pendingLine.count
        tailCache.ignoresPending = ignoresPending
        tailCache.closed = snapshot.closed
        tailCache.references = snapshot.references
        tailCache.definesReferences = snapshot.references.count != parser.references.count
        let leafNode = TailCache.spineLeaf(under: snapshot.closed.last)
        tailCache.leafNode = leafNode
        tailCache.deferredLeaf = nil
        if let deferred = snapshot.deferredLeaf, !sensitive, deferred === leafNode, deferred.hasPendingPart,
            !TailCache.leafMayChangeShape(deferred, options: parser.options)
        {
            tailCache.deferredLeaf = deferred
            tailCache.deferredOffset = snapshot.deferredOffset
        }
        return snapshot.deferredLeaf
    }

    /// The tail of the kept snapshot: settled blocks, then the snapshot's blocks, the spine rebuilt
    /// and its last block updated from the last tail's.
    private func materializeTail() -> [Block] {
        var materializer = makeMaterializer(references: tailCache.references, writesCache: false)
        materializer.cachesSnapshotBlocks = true
        var leaf = TailLeaf()
        swap(&leaf, &tailCache.leaf)
        leaf.beginRead(taking: &tailCache.blocks)
        if !tailCache.definesReferences, let node = tailCache.leafNode {
            materializer.leafNode = node
            materializer.leaf = TailLeaf()
            swap(&leaf, &materializer.leaf!)
        }
        var blocks: [Block]
        if tailCache.definesReferences {
            // The tail defined a link reference: settled blocks may resolve it.
            blocks = []
            for node in settled { blocks += materializer.blocks(node) }
        } else {
            blocks = settledValues
        }
        for node in tailCache.closed { blocks += materializer.blocks(node) }
        if materializer.leaf != nil { swap(&leaf, &materializer.leaf!) }
        leaf.endRead()
        swap(&leaf, &tailCache.leaf)
        tailCache.blocks = blocks
        return blocks
    }

    /// The tail rebuilt from scratch: a copy of the live parser reads the pending line into its
    /// blocks and closes them, and every open block is built anew.
    func freshTail() -> [Block] {
        var blocks: [Block] = []
        var snapshot = parser.copy(asSnapshot: true)
        if !pendingLine.isEmpty && snapshot.tip.kind != .table {
            snapshot.incorporate(line: pendingLine)
        }
        snapshot.finish()
        var materializer = BlockMaterializer(
            options: parser.options, references: snapshot.references, writesCache: false)
        if snapshot.references.count == parser.references.count {
            blocks = settledValues
        } else {
            for node in settled { blocks += materializer.blocks(node) }
        }
        for node in snapshot.closed { blocks += materializer.blocks(node) }
        return blocks
    }
}
