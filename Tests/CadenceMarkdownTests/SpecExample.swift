import Foundation
import Testing

@testable import CadenceMarkdown

/// One example of a spec corpus (`commonmark-0.31.2.json`, `gfm-extensions-0.29.json`).
struct SpecExample: Decodable, Sendable, CustomTestStringConvertible {
    let example: Int
    let section: String
    let markdown: String
    let html: String

    var testDescription: String { "\(example) \(section)" }

    /// Loads a corpus from `Fixtures/`, or else from `../shared/conformance/` beside the repository.
    static func load(_ name: String) -> [SpecExample] {
        let candidates = [
            Fixtures.directory.appendingPathComponent(name),
            Fixtures.repository.deletingLastPathComponent().appendingPathComponent("shared/conformance/\(name)"),
        ]
        for url in candidates {
            if let data = try? Data(contentsOf: url),
                let examples = try? JSONDecoder().decode([SpecExample].self, from: data)
            {
                return examples
            }
        }
        return []
    }

    static let commonMark = load("commonmark-0.31.2.json")
    static let gfm = load("gfm-extensions-0.29.json")
}

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    /// The repository root (`Tests/CadenceMarkdownTests/..` twice).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

/// The HTML normalization of the CommonMark spec runner, in short: whitespace between tags is dropped,
/// attributes are sorted, self-closing slashes removed; text outside `<pre>` has its whitespace collapsed.
enum HTMLNormalizer {
    static func normalize(_ html: String) -> String {
        var out = ""
        var i = html.startIndex
        var inPre = false
        var text = ""
        func flushText() {
            if inPre {
                out += text
            } else {
                let collapsed = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(
                    separator: " ")
                if !collapsed.isEmpty {
                    let leading = text.first.map { $0 == " " || $0 == "\n" } ?? false
                    let trailing = text.last.map { $0 == " " || $0 == "\n" } ?? false
                    out += (leading && !out.hasSuffix(">") ? " " : "") + collapsed + (trailing ? " " : "")
                }
            }
            text = ""
        }
        while i < html.endIndex {
            let c = html[i]
            if c == "<", let close = html[i...].firstIndex(of: ">") {
                flushText()
                let tag = String(html[html.index(after: i)..<close])
                out += normalizeTag(tag)
                let name =
                    tag.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "/" }).first.map(String.init) ?? ""
                if name.lowercased() == "pre" { inPre = !tag.hasPrefix("/") }
                if tag.lowercased().hasPrefix("/pre") { inPre = false }
                i = html.index(after: close)
            } else {
                text.append(c)
                i = html.index(after: i)
            }
        }
        flushText()
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func normalizeTag(_ raw: String) -> String {
        var tag = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if tag.hasPrefix("!") || tag.hasPrefix("?") { return "<" + raw + ">" }
        if tag.hasSuffix("/") { tag = String(tag.dropLast()).trimmingCharacters(in: .whitespaces) }
        // Split name and attributes, respecting quotes.
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for ch in tag {
            if let q = quote {
                current.append(ch)
                if ch == q { quote = nil }
            } else if ch == "\"" || ch == "'" {
                quote = ch
                current.append(ch)
            } else if ch == " " || ch == "\n" || ch == "\t" {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { parts.append(current) }
        guard let name = parts.first else { return "<" + raw + ">" }
        let attributes = parts.dropFirst().sorted()
        return "<" + ([name.lowercased()] + attributes).joined(separator: " ") + ">"
    }

    static func equivalent(_ a: String, _ b: String) -> Bool {
        a == b || normalize(a) == normalize(b)
    }
}
