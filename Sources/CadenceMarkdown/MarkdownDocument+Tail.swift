/// Reading the open tail: incrementally (`tail()`), or from scratch (`freshTail()`, which the tests
/// compare it with).
extension MarkdownDocument.Storage {
    /// The tail, reusing what the last read built (see `TailCache`).
    func tail() -> [Block] {
        var steps = 1
        defer { inlineWork.steps += steps }
        let pendingCount = pendingLine.count
        if tailCache.revision == revision {
            if pendingCount == tailCache.pendingCount || tailCache.ignoresPending {
                tailCache.pendingCount = pendingCount
                return tailCache.blocks
            }
            if tailCache.deferredLeaf != nil, pendingCount > tailCache.pendingCount {
                // Only the deferred block's last line grew: update its value in the last tail.
                tailCache.pendingCount = pendingCount
                let text = LeafText(head: tailCache.leafHead, pending: pendingLine[tailCache.deferredOffset...])
                var blocks: [Block] = []
                swap(&blocks, &tailCache.blocks)
                if tailCache.leaf.updateInPlace(
                    text, blocks: &blocks, options: parser.options, references: tailCache.references, work: &steps)
                {
                    tailCache.blocks = blocks
                    return blocks
                }
                let leaf = tailCache.deferredLeaf!
                leaf.pendingPart = pendingLine[tailCache.deferredOffset...]
                defer { leaf.pendingPart = [] }
                return materializeTail(&tailCache)
            }
        }
        let holder = buildSnapshot(&tailCache)
        let blocks = materializeTail(&tailCache)
        holder?.pendingPart = []  // the pending line keeps growing in place
        return blocks
    }

    /// Copies the live parser, reads the pending line into the copy and closes it virtually.
    /// Returns the node that holds part of the pending line.
    private func buildSnapshot(_ cache: inout TailCache) -> BlockNode? {
        var snapshot = parser.copy(asSnapshot: true)
        snapshot.defersLastLine = true
        if cache.revision == revision { snapshot.lineScans = cache.lineScans }
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
                cache.lineScans = snapshot.lineScans
            }
        }
        snapshot.finish()
        inlineWork.steps += snapshot.work - workBefore
        cache.revision = revision
        cache.pendingCount = pendingLine.count
        cache.ignoresPending = ignoresPending
        cache.closed = snapshot.closed
        cache.references = snapshot.references
        cache.definedLabels = Array(snapshot.definedLabels[parser.definedLabels.count...])
        let leafNode = TailCache.spineLeaf(under: snapshot.closed.last)
        cache.leafNode = leafNode
        cache.deferredLeaf = nil
        cache.leafHead = []
        if let deferred = snapshot.deferredLeaf, !sensitive, deferred === leafNode, deferred.hasPendingPart,
            !TailCache.leafMayChangeShape(deferred, options: parser.options)
        {
            cache.deferredLeaf = deferred
            cache.deferredOffset = snapshot.deferredOffset
            cache.leafHead = deferred.text
        }
        return snapshot.deferredLeaf
    }

    /// The tail of the kept snapshot: settled blocks, then the snapshot's blocks, the spine rebuilt
    /// and its last block updated from the last tail's.
    private func materializeTail(_ cache: inout TailCache) -> [Block] {
        var materializer = makeMaterializer(references: cache.references, writesCache: false)
        materializer.cachesSnapshotBlocks = true
        var leaf = TailLeaf()
        swap(&leaf, &cache.leaf)
        leaf.beginRead(taking: &cache.blocks)
        if !cache.definesReferences, let node = cache.leafNode {
            materializer.leafNode = node
            materializer.leaf = TailLeaf()
            swap(&leaf, &materializer.leaf!)
        }
        let held = settledValues()
        var blocks: [Block]
        if cache.definesReferences {
            // The tail defined a link reference: the settled blocks that missed its label resolve it.
            blocks = settled.values(resolving: cache.definedLabels[...], using: &materializer)
        } else {
            blocks = Array(held)
        }
        for node in cache.closed { materializer.append(node, to: &blocks) }
        if materializer.leaf != nil { swap(&leaf, &materializer.leaf!) }
        leaf.endRead()
        swap(&leaf, &cache.leaf)
        cache.blocks = blocks
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
        if snapshot.references.count == parser.references.count && settled.isCurrent {
            blocks = Array(settled.heldValues)
        } else {
            for node in settled.heldNodes { materializer.append(node, to: &blocks) }
        }
        for node in snapshot.closed { materializer.append(node, to: &blocks) }
        return blocks
    }
}
