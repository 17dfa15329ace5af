/// An incremental markdown parser for streamed answers.
///
/// `append(_:)` does work proportional to the new text: complete lines go through the block parser
/// once, and blocks that can no longer change are **committed** — parsed once, immutable, identified
/// by their index. The open tail (the last, still-growing blocks and the partial line) is rebuilt
/// on demand by `tail`, closing unfinished constructs virtually: an open fence is code in progress,
/// `**bold` is bold to the end, a half-typed `[1` citation is held back, a half-typed table row waits
/// for its newline. `finish()` returns the same tree as a one-shot parse of the whole text.
///
/// ```swift
/// var document = MarkdownDocument()
/// for chunk in ["# Ti", "tle\n\nSome **bo", "ld** text [1]\n"] {
///     document.append(chunk)
///     render(document.committed, document.tail)   // committed blocks never change
/// }
/// let tree = document.finish()
/// ```
public struct MarkdownDocument: Sendable {
    public let options: MarkdownOptions
    private(set) var storage: Storage

    public init(options: MarkdownOptions = .default) {
        self.options = options
        storage = Storage(parser: BlockParser(options: options))
    }

    /// Final blocks, in order; block `i` has identity `BlockID(i)` and never changes.
    public var committed: [Block] { storage.committed }

    /// The blocks after `committed`: settled blocks that a later link definition could still change,
    /// then the open tail closed virtually. Their identities continue from `committed.count`.
    ///
    /// Reading it after each chunk costs about the chunk, not the open blocks: what the last read
    /// built is kept (hence `mutating`) and only what the new text can change is parsed again (see
    /// `TailCache`). The open block's value grows in place when the reader no longer holds the
    /// last tail, so drop it (or read this once per frame) when the open block may be long.
    public var tail: [Block] {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage.tail()
        }
    }

    /// The tail rebuilt from scratch, keeping nothing between reads: what `tail` must equal (the
    /// tests and the fuzz oracle compare them).
    package func freshTail() -> [Block] { storage.freshTail() }

    /// The current view: committed blocks followed by the tail.
    public var tree: MarkdownTree {
        mutating get { MarkdownTree(blocks: committed + tail) }
    }

    /// The parsing work done so far, in steps (see `WorkCounter`): tests check that it stays
    /// proportional to the input, whatever its nesting.
    package var work: Int { storage.parser.work + storage.inlineWork.steps }

    /// Feeds streamed text; any chunking of the same text gives the same result.
    public mutating func append(_ text: some StringProtocol) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        var text = String(text)
        text.withUTF8 { storage.append($0) }
    }

    /// Removes the committed blocks from the document and returns them, for a reader that uses each
    /// block once as it commits (`cadence render` prints it): the document then holds only what may
    /// still change, never the whole text, however long it grows.
    ///
    /// Afterwards `committed`, the tail's identities and ``finish()`` count from the first block not
    /// taken: `finish()` returns only the blocks committed since the last call.
    ///
    /// ```swift
    /// document.append(chunk)
    /// print(HTMLRenderer().render(document.takeCommitted()), terminator: "")
    /// ```
    public mutating func takeCommitted() -> [Block] {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        defer { storage.committed.removeAll() }
        return storage.committed
    }

    /// Ends the input and returns the final tree, equal to a one-shot parse of everything appended.
    public mutating func finish() -> MarkdownTree {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.finish()
    }
}

extension MarkdownDocument {
    /// Mutable state behind the value type, copied on write.
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var parser: BlockParser
        @exclusivity(unchecked) var pendingLine: [UInt8] = []
        @exclusivity(unchecked) var afterCarriageReturn = false
        @exclusivity(unchecked) var committed: [Block] = []
        /// Closed top-level blocks waiting behind one that a later definition could still change.
        @exclusivity(unchecked) var settled = SettledBlocks()
        @exclusivity(unchecked) var finished: MarkdownTree?
        /// Counts the lines the live parser took (and the finish): a tail snapshot is valid for one.
        @exclusivity(unchecked) var revision = 0
        /// Builds closed blocks, kept between lines (`takeClosedMaterializer()`).
        @exclusivity(unchecked) private var closedMaterializer: BlockMaterializer?
        /// What the last tail read built (`MarkdownDocument+Tail.swift`).
        @exclusivity(unchecked) var tailCache = TailCache()

        /// The inline parsers' work so far (``MarkdownDocument/work``).
        @exclusivity(unchecked) var inlineWork = WorkCounter()

        init(parser: BlockParser) {
            self.parser = parser
        }

        func makeMaterializer(references: [String: LinkReference], writesCache: Bool) -> BlockMaterializer {
            BlockMaterializer(
                options: parser.options, references: references, writesCache: writesCache, workCounter: inlineWork)
        }

        func copy() -> Storage {
            let copy = Storage(parser: parser.copy(asSnapshot: false))
            copy.pendingLine = pendingLine
            copy.afterCarriageReturn = afterCarriageReturn
            copy.committed = committed
            copy.settled = settled
            copy.finished = finished
            copy.revision = revision
            copy.inlineWork.steps = inlineWork.steps
            return copy
        }

        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard finished == nil else { return }
            var line = pendingLine
            pendingLine = []
            var i = 0
            if afterCarriageReturn, let first = bytes.first {
                afterCarriageReturn = false
                if first == 0x0A { i = 1 }
            }
            while i < bytes.count {
                var j = i
                // Eight bytes at a time while none is below 0x0E (so no line ending or NUL), then
                // byte by byte.
                if let base = bytes.baseAddress {
                    while j + 8 <= bytes.count && !ByteWord(base, j).holdsByte(below: 0x0E) { j += 8 }
                }
                while j < bytes.count {
                    let c = bytes[j]
                    if c < 0x0E && (c == 0x0A || c == 0x0D || c == 0x00) { break }
                    j += 1
                }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<j]))
                guard j < bytes.count else { break }
                i = j + 1
                switch bytes[j] {
                case 0x00:
                    line += [0xEF, 0xBF, 0xBD]  // U+FFFD for NUL
                    continue
                case 0x0D:
                    if i == bytes.count {
                        afterCarriageReturn = true
                    } else if bytes[i] == 0x0A {
                        i += 1
                    }
                default:
                    break
                }
                if tailCache.revision >= 0 { tailCache.releaseSnapshot() }
                parser.incorporate(line: line)
                parser.line = []  // so that `line` is ours alone again and keeps its buffer
                revision &+= 1
                line.removeAll(keepingCapacity: true)
            }
            pendingLine = line
            settleClosedBlocks()
        }

        /// The materializer of the last settle, with the link definitions known now, or a new one:
        /// its inline parser's arrays keep their capacity from block to block.
        private func takeClosedMaterializer() -> BlockMaterializer {
            if var kept = closedMaterializer.take(), kept.references.count == parser.references.count {
                kept.misses.removeAll(keepingCapacity: true)
                return kept
            }
            return makeMaterializer(references: parser.references, writesCache: true)
        }

        /// Materializes newly closed nodes (filling their caches) and commits what is final.
        private func settleClosedBlocks() {
            // New definitions make stale the held-back blocks that missed their labels (built again
            // when read or committed), and may let the first of them commit.
            inlineWork.steps += settled.define(parser.definedLabels)
            guard !parser.justClosed.isEmpty || !parser.closed.isEmpty || settled.mayCommit else { return }
            // Held blocks may commit here though no line came (a tail read that built a stale one
            // again can find it waits for nothing): the last tail, which shows them, is out of date.
            if tailCache.revision >= 0 { tailCache.releaseSnapshot() }
            var materializer = takeClosedMaterializer()
            defer { closedMaterializer = materializer }
            var values: [Block] = []
            for node in parser.justClosed {
                materializer.append(node, to: &values)
                values.removeAll(keepingCapacity: true)
            }
            parser.justClosed.removeAll(keepingCapacity: true)
            // One materializer for every check: a closed node's value is cached by now, and the
            // labels it looked up in vain are the misses its read adds.
            for node in parser.closed {
                guard settled.isEmpty else {
                    settled.hold(node, using: &materializer)
                    continue
                }
                let missesBefore = materializer.misses.count
                let start = committed.count
                materializer.append(node, to: &committed)
                if materializer.misses.count != missesBefore {
                    // It looked up a label in vain: held back until the end, or a definition.
                    committed.removeSubrange(start...)
                    settled.hold(node, using: &materializer)
                }
            }
            parser.closed.removeAll(keepingCapacity: true)
            settled.commitReady(to: &committed, using: &materializer)
        }

        /// The held-back blocks' values with every definition known so far.
        func settledValues() -> ArraySlice<Block> {
            guard !settled.isCurrent else { return settled.heldValues }
            var materializer = takeClosedMaterializer()
            defer { closedMaterializer = materializer }
            return settled.currentValues(using: &materializer)
        }

        func finish() -> MarkdownTree {
            if let finished { return finished }
            tailCache = TailCache()
            if !pendingLine.isEmpty {
                parser.incorporate(line: pendingLine)
                pendingLine.removeAll()
            }
            parser.finish()
            revision &+= 1
            settleClosedBlocks()
            // The blocks still held back commit, those a definition resolved built again.
            committed += settledValues()
            settled = SettledBlocks()
            closedMaterializer = nil  // nothing closes any more: its buffers go
            let tree = MarkdownTree(blocks: committed)
            finished = tree
            return tree
        }
    }
}
