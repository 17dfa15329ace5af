/// Closed top-level blocks held back from a document's committed blocks: the first of them looked up
/// a link label that no definition matched yet, and CommonMark lets a definition come after its use,
/// so its value may still change; the blocks after it wait behind it, so that committed blocks stay
/// in order.
///
/// Each block's value is kept, built with the definitions known when it closed, with the labels it
/// missed (`waiting`). A definition that arrives marks stale only the blocks that missed its label
/// (`missedBy` indexes them by label), and a stale value is built again only when it is read
/// (`currentValues`: a tail read, or the end) or when its block commits: once, however many
/// definitions came in between and however the chunks fell around them. Neither a definition nor a
/// check for blocks to commit walks the blocks that it cannot change, so the work stays linear.
struct SettledBlocks {
    /// The held blocks are those from `head` on; the ones before it committed, and go in batches.
    private var nodes: [BlockNode] = []
    /// One value per block (a closed top-level node has one), possibly stale.
    private var values: [Block] = []
    /// Per block, the labels its value looked up in vain that are still undefined: it may commit
    /// once this is empty.
    private var waiting: [Set<String>] = []
    private var isStale: [Bool] = []
    private var head = 0
    /// How many blocks went before `nodes[0]`: a block's position is its index plus this.
    private var dropped = 0
    /// The positions of blocks that a definition made stale, each once until rebuilt.
    private var stale: [Int] = []
    /// For each label still undefined, the positions of the blocks that missed it.
    private var missedBy: [String: [Int]] = [:]
    /// How many of the parser's definitions (`BlockParser.definedLabels`) were taken into account.
    private var definitionsSeen = 0
    /// A block built again before its value is put in place.
    private var scratch: [Block] = []

    var isEmpty: Bool { head == nodes.count }

    /// The held blocks, in order.
    var heldNodes: ArraySlice<BlockNode> { nodes[head...] }

    /// Whether every held value was built with every definition known (`currentValues` would build
    /// nothing again).
    var isCurrent: Bool { stale.isEmpty }

    /// The held blocks' values, current when `isCurrent`.
    var heldValues: ArraySlice<Block> { values[head...] }

    /// Whether the first held block waits for no label any more (`commitReady` would try it).
    var mayCommit: Bool { head < nodes.count && waiting[head].isEmpty }

    /// Holds `node` back: builds its value with `materializer`, which knows every definition so far.
    mutating func hold(_ node: BlockNode, using materializer: inout BlockMaterializer) {
        let missesBefore = materializer.misses.count
        let start = values.count
        materializer.append(node, to: &values)
        assert(values.count == start + 1, "a closed top-level block has one value")
        nodes.append(node)
        waiting.append([])
        isStale.append(false)
        setWaiting(nodes.count - 1, to: materializer.misses[missesBefore...])
    }

    /// Takes the definitions the parser found since the last call: the blocks that missed one of
    /// their labels go stale. Returns the steps of work (one per block and label looked at).
    mutating func define(_ definedLabels: [String]) -> Int {
        var steps = 0
        while definitionsSeen < definedLabels.count {
            let label = definedLabels[definitionsSeen]
            definitionsSeen += 1
            for position in missedBy.removeValue(forKey: label) ?? [] {
                steps += 1
                let index = position - dropped
                guard index >= head, waiting[index].remove(label) != nil, !isStale[index] else { continue }
                isStale[index] = true
                stale.append(position)
            }
        }
        return steps
    }

    /// Moves the blocks at the front that no longer wait for any label to `committed`, up to the
    /// first that still does, built with every definition known (`materializer`).
    mutating func commitReady(to committed: inout [Block], using materializer: inout BlockMaterializer) {
        while head < nodes.count && waiting[head].isEmpty {
            let missesBefore = materializer.misses.count
            let start = committed.count
            materializer.append(nodes[head], to: &committed)
            guard materializer.misses.count == missesBefore else {
                // Built again, it looked up a label it had not (it missed none before, or some that
                // are now defined changed what it reads): it waits for that one.
                values[head] = committed[start]
                committed.removeSubrange(start...)
                isStale[head] = false
                setWaiting(head, to: materializer.misses[missesBefore...])
                break
            }
            head += 1
        }
        guard head > 0, 2 * head >= nodes.count else { return }
        // The committed ones leave in a batch (one by one would be quadratic).
        nodes.removeFirst(head)
        values.removeFirst(head)
        waiting.removeFirst(head)
        isStale.removeFirst(head)
        dropped += head
        head = 0
    }

    /// The values of the held blocks, the stale ones built again first with `materializer` (which
    /// knows every definition, and caches the new values on the nodes).
    mutating func currentValues(using materializer: inout BlockMaterializer) -> ArraySlice<Block> {
        for position in stale {
            let index = position - dropped
            guard index >= head, isStale[index] else { continue }
            let missesBefore = materializer.misses.count
            scratch.removeAll(keepingCapacity: true)
            materializer.append(nodes[index], to: &scratch)
            values[index] = scratch[0]
            isStale[index] = false
            setWaiting(index, to: materializer.misses[missesBefore...])
        }
        stale.removeAll()
        return values[head...]
    }

    /// The held values as a tail read shows them, whose snapshot defines `labels` that the live
    /// parser does not know yet: only the blocks that missed one of them are built again, with
    /// `materializer` (the snapshot's definitions, writing no cache). Call after `currentValues`.
    func values(resolving labels: ArraySlice<String>, using materializer: inout BlockMaterializer) -> [Block] {
        var result = Array(values[head...])
        var rebuilt: Set<Int> = []
        var block: [Block] = []
        for label in labels {
            for position in missedBy[label] ?? [] {
                let index = position - dropped
                guard index >= head, waiting[index].contains(label), rebuilt.insert(index).inserted else { continue }
                block.removeAll(keepingCapacity: true)
                materializer.append(nodes[index], to: &block)
                result[index - head] = block[0]
            }
        }
        return result
    }

    /// Records that the block at `index`, just built, looked up `labels` in vain: what it misses now
    /// is what it waits for (a definition may change which labels a block reads, as when a link
    /// takes the place of another). A label it waited for before is indexed already; one it no
    /// longer reads keeps its entry, which `define` passes over.
    private mutating func setWaiting(_ index: Int, to labels: ArraySlice<String>) {
        let before = waiting[index]
        var now: Set<String> = []
        for label in labels where now.insert(label).inserted && !before.contains(label) {
            missedBy[label, default: []].append(index + dropped)
        }
        waiting[index] = now
    }
}
