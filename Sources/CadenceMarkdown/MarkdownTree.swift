/// A parsed markdown document: its top-level blocks.
///
/// ```swift
/// let tree = MarkdownParser().parse("Hello *world*")
/// print(HTMLRenderer().render(tree))  // <p>Hello <em>world</em></p>
/// ```
public struct MarkdownTree: Sendable, Hashable {
    public var blocks: [Block]

    public init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// The block at an ordinal identity: top-level index, then child indexes
    /// (a list's items count as its children, then an item's blocks).
    public func block(at id: BlockID) -> Block? {
        guard let first = id.path.first, blocks.indices.contains(first) else { return nil }
        var current = blocks[first]
        var rest = id.path.dropFirst()
        while let index = rest.first {
            rest = rest.dropFirst()
            switch current {
            case .blockQuote(let children):
                guard children.indices.contains(index) else { return nil }
                current = children[index]
            case .list(let list):
                guard list.items.indices.contains(index), let next = rest.first else { return nil }
                rest = rest.dropFirst()
                guard list.items[index].blocks.indices.contains(next) else { return nil }
                current = list.items[index].blocks[next]
            default:
                return nil
            }
        }
        return current
    }
}

/// The stable identity of a block: its ordinal path in the tree, never a content hash.
///
/// A streamed block keeps its identity from the moment it appears, even if it changes kind
/// (a paragraph becoming a heading); committed blocks never change.
///
/// ```swift
/// let id = BlockID(3)          // the fourth top-level block
/// let nested = BlockID(3, 0, 1) // in its first list item, the second block
/// ```
public struct BlockID: Sendable, Hashable, CustomStringConvertible {
    public var path: [Int]

    public init(_ path: Int...) {
        self.path = path
    }

    public init(path: [Int]) {
        self.path = path
    }

    public var description: String { path.map(String.init).joined(separator: ".") }
}

/// One-shot parsing: the same machinery as `MarkdownDocument`, fed the whole text at once.
///
/// ```swift
/// let tree = MarkdownParser(options: .gfm).parse("| a |\n|---|\n| 1 |\n")
/// ```
public struct MarkdownParser: Sendable {
    public var options: MarkdownOptions

    public init(options: MarkdownOptions = .default) {
        self.options = options
    }

    public func parse(_ text: String) -> MarkdownTree {
        var document = MarkdownDocument(options: options)
        document.append(text)
        return document.finish()
    }
}
