import CadenceTesting
import Foundation
import Testing

@testable import CadenceMarkdown

/// 10⁵ levels of nesting: parsed, then rendered to HTML, the terminal and a tree outline, on a thread
/// with a 512 KiB stack (the smallest a Swift test may get), so recursion proportional to the depth
/// would crash here. Linear time is checked by counting work (`MarkdownDocument.work`), not by a clock:
/// the work stays under a small multiple of the input's size, and doubling the depth at most doubles it.
///
/// Containers nest at most `BlockParser.maximumDepth` deep and inlines `InlineParser.maximumDepth`;
/// deeper markers are text, so every walk over the tree is bounded.
@Suite("Deep nesting")
struct DeepNestingTests {
    static let cases: [(name: String, text: @Sendable (Int) -> String)] = [
        ("quotes", { String(repeating: ">", count: $0) + " a\n" }),
        ("spaced quotes", { String(repeating: "> ", count: $0) + "a\n" }),
        ("open brackets", { String(repeating: "[", count: $0) + "a\n" }),
        ("nested link text", { String(repeating: "[", count: $0) + "a" + String(repeating: "]", count: $0) + "\n" }),
        ("images in links", { String(repeating: "[![", count: $0 / 3) + "a" + String(repeating: "](b)", count: $0 / 2) }),
        ("links after open brackets", { String(repeating: "[", count: $0 / 2) + String(repeating: "[a](b)", count: $0 / 12) }),
        ("bullet lists", { String(repeating: "- ", count: $0) + "a\n" }),
        ("ordered lists", { String(repeating: "1. ", count: $0) + "a\n" }),
        ("emphasis", { String(repeating: "*", count: $0) + "a" + String(repeating: "*", count: $0) + "\n" }),
        ("quotes and lists", { String(repeating: "> - ", count: $0 / 2) + "a\n" }),
    ]

    /// The input's size, the parser's work, the tree's depth, and the size of each rendering.
    struct Measure: Sendable {
        var bytes, work, depth, html, ansi, tree: Int
    }

    /// Parses and renders `text` on a small stack, returning the sizes and the parser's work.
    static func measure(_ text: String) -> Measure {
        onSmallStack {
            var document = MarkdownDocument()
            document.append(text)
            let tree = document.finish()
            return Measure(
                bytes: text.utf8.count, work: document.work, depth: nestingDepth(tree.blocks),
                html: HTMLRenderer().render(tree).utf8.count,
                ansi: ANSIRenderer(width: 80, colors: false).render(tree).utf8.count,
                tree: TreeRenderer().render(tree).utf8.count)
        }
    }

    #if DEBUG
    @Test("10⁵ levels parse and render in linear work without deep recursion", arguments: cases.map(\.name))
    func linear(_ name: String) {
        let text = Self.cases.first { $0.name == name }!.text
        let single = Self.measure(text(100_000))
        let double = Self.measure(text(200_000))
        print("\(name): \(single.bytes) bytes, work \(single.work) (\(double.work) at twice the depth), depth \(single.depth), output html \(single.html) ansi \(single.ansi) tree \(single.tree)")
        #expect(single.work <= 12 * single.bytes, "work per byte \(Double(single.work) / Double(single.bytes))")
        #expect(Double(double.work) / Double(single.work) < 2.5)
        #expect(single.depth <= BlockParser.maximumDepth + InlineParser.maximumDepth)
        for (output, doubled) in [(single.html, double.html), (single.ansi, double.ansi), (single.tree, double.tree)] {
            #expect(Double(doubled) / Double(output) < 2.5, "renderer output grows faster than the input")
        }
    }
    #endif

    @Test("a streamed deep document equals the one-shot parse")
    func streamed() {
        let text = String(repeating: "> - ", count: 20_000) + "a *b [c](d)* e\n\n" + String(repeating: "[", count: 50_000)
        let (whole, chunked) = onSmallStack {
            var chunked = MarkdownDocument()
            var taken: [Block] = []
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: 4096) {
                chunked.append(String(decoding: bytes[start..<min(start + 4096, bytes.count)], as: UTF8.self))
                taken += chunked.takeCommitted()
            }
            return (MarkdownParser().parse(text), MarkdownTree(blocks: taken + chunked.finish().blocks))
        }
        #expect(whole == chunked)
    }

    /// How deep blocks and inlines nest, walked without recursion.
    static func nestingDepth(_ blocks: [Block]) -> Int {
        enum Node {
            case block(Block)
            case inline(Inline)
        }
        var deepest = 0
        var stack: [(Node, Int)] = blocks.map { (.block($0), 1) }
        while let (node, depth) = stack.popLast() {
            deepest = max(deepest, depth)
            switch node {
            case .block(.blockQuote(let children)): stack += children.map { (.block($0), depth + 1) }
            case .block(.list(let list)): stack += list.items.flatMap(\.blocks).map { (.block($0), depth + 1) }
            case .block(.paragraph(let inlines)), .block(.heading(_, let inlines)):
                stack += inlines.map { (.inline($0), depth + 1) }
            case .inline(.emphasis(let children)), .inline(.strong(let children)), .inline(.strikethrough(let children)),
                .inline(.link(_, _, let children)), .inline(.image(_, _, let children)):
                stack += children.map { (.inline($0), depth + 1) }
            default: break
            }
        }
        return deepest
    }
}
