/// The node arena: creating, linking and reading nodes by index.
extension InlineParser {
    mutating func newNode(_ kind: Kind, _ text: [UInt8]? = nil) -> Int {
        var node = Node(kind: kind)
        if let text {
            extras.append(Extra(owned: text))
            node.extra = extras.count - 1
        }
        nodes.append(node)
        return nodes.count - 1
    }

    mutating func setExtra(_ node: Int, _ extra: Extra) {
        extras.append(extra)
        nodes[node].extra = extras.count - 1
    }

    /// A text node for `subject[start..<end]`.
    @discardableResult
    mutating func appendText(_ start: Int, _ end: Int, kind: Kind = .text) -> Int {
        nodes.append(Node(kind: kind, start: start, end: end))
        let node = nodes.count - 1
        appendChild(0, node)
        return node
    }

    func text(_ node: Int) -> ArraySlice<UInt8> {
        if nodes[node].extra != -1, let owned = extras[nodes[node].extra].owned { return owned[...] }
        return subject[nodes[node].start..<nodes[node].end]
    }

    /// Drops `count` bytes from the end of a node's text.
    mutating func dropLast(_ count: Int, of node: Int) {
        if nodes[node].extra != -1, extras[nodes[node].extra].owned != nil {
            extras[nodes[node].extra].owned!.removeLast(count)
        } else {
            nodes[node].end -= count
        }
    }

    mutating func appendChild(_ parent: Int, _ child: Int) {
        nodes[child].parent = parent
        nodes[child].next = -1
        let last = nodes[parent].last
        nodes[child].prev = last
        if last == -1 { nodes[parent].first = child } else { nodes[last].next = child }
        nodes[parent].last = child
    }

    @discardableResult
    mutating func append(_ kind: Kind, _ text: [UInt8]? = nil) -> Int {
        let node = newNode(kind, text)
        appendChild(0, node)
        return node
    }

    mutating func unlink(_ node: Int) {
        let n = nodes[node]
        if n.prev != -1 { nodes[n.prev].next = n.next } else if n.parent != -1 { nodes[n.parent].first = n.next }
        if n.next != -1 { nodes[n.next].prev = n.prev } else if n.parent != -1 { nodes[n.parent].last = n.prev }
        nodes[node].parent = -1
        nodes[node].prev = -1
        nodes[node].next = -1
    }

    mutating func insertAfter(_ node: Int, _ sibling: Int) {
        let parent = nodes[node].parent
        let next = nodes[node].next
        nodes[sibling].parent = parent
        nodes[sibling].prev = node
        nodes[sibling].next = next
        nodes[node].next = sibling
        if next != -1 { nodes[next].prev = sibling } else if parent != -1 { nodes[parent].last = sibling }
    }

    /// Moves every sibling after `node` (up to, not including, `end`) into `container`.
    mutating func moveSiblings(after node: Int, until end: Int, into container: Int) {
        var current = nodes[node].next
        while current != -1 && current != end {
            work += 1
            let next = nodes[current].next
            unlink(current)
            appendChild(container, current)
            current = next
        }
    }

    /// The text of every descendant of `parent`, in order, without recursion.
    func flattenedText(_ parent: Int) -> [UInt8] {
        var out: [UInt8] = []
        var stack = [nodes[parent].first]
        while let current = stack.popLast() {
            guard current != -1 else { continue }
            stack.append(nodes[current].next)
            switch nodes[current].kind {
            case .text, .code: out += text(current)
            case .softBreak, .lineBreak: out.append(0x0A)
            default: stack.append(nodes[current].first)
            }
        }
        return out
    }
}
