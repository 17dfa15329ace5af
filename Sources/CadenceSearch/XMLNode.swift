import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parsed XML element: its name (with any namespace prefix as written), attributes, text and
/// children. PubMed's `efetch` and arXiv's Atom feed are both read through it.
///
/// ```swift
/// let root = try XMLNode.parse("<a><b x=\"1\">hi</b></a>")
/// root.child("b")?.text          // "hi"
/// root.child("b")?.attributes["x"]  // "1"
/// ```
struct XMLNode: Sendable {
    var name: String
    var attributes: [String: String] = [:]
    var children: [XMLNode] = []
    /// All the text inside this element, its children's included, in document order.
    var allText = ""

    /// The first child named `name`.
    func child(_ name: String) -> XMLNode? {
        children.first { $0.name == name }
    }

    /// Every child named `name`.
    func children(_ name: String) -> [XMLNode] {
        children.filter { $0.name == name }
    }

    /// The descendant at `path` (child names), if every step exists.
    func find(_ path: String...) -> XMLNode? {
        var node: XMLNode? = self
        for step in path { node = node?.child(step) }
        return node
    }

    /// All the text inside, children's included (`<i>` in a title), with runs of white space as one space.
    var text: String {
        allText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Parses `text`; throws when it is not well-formed XML.
    static func parse(_ text: String) throws -> XMLNode {
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw SearchSourceError(.unreadableBody, "the reply is not well-formed XML (\(reason))")
        }
        return root
    }
}

/// Builds the tree from the parser's callbacks.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLNode] = []
    var root: XMLNode?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        stack.append(XMLNode(name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].allText += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].allText += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].allText += node.allText
            stack[stack.count - 1].children.append(node)
        }
    }
}
