/// An inline node: text, emphasis, links, code spans, citations…
///
/// ```swift
/// let inlines: [Inline] = [.text("see "), .emphasis([.text("this")]), .citation([1])]
/// print(Inline.plainText(inlines))  // "see this[1]"
/// ```
public enum Inline: Sendable, Hashable {
    // Text, code and emphasis are stored in the value itself; links and images, the large ones,
    // are boxed (`indirect`), so that most inlines cost no allocation of their own.
    case text(String)
    /// A line ending inside a paragraph.
    case softBreak
    /// A hard line break (two trailing spaces or a backslash).
    case lineBreak
    case code(String)
    /// Raw inline HTML.
    case html(String)
    case emphasis([Inline])
    case strong([Inline])
    /// GFM `~~strikethrough~~`.
    case strikethrough([Inline])
    /// A link; `destination` is `nil` for a streamed link whose target is still being typed.
    indirect case link(destination: String?, title: String?, [Inline])
    indirect case image(source: String, title: String?, [Inline])
    /// Citations `[1]` or `[1][2]`: source numbers, in order (non-strict mode only).
    case citation([Int])

    /// The text of inlines without markup, as used for image `alt` text.
    public static func plainText(_ inlines: [Inline]) -> String {
        var out = ""
        appendPlainText(inlines, to: &out)
        return out
    }

    static func appendPlainText(_ inlines: [Inline], to out: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let s), .code(let s), .html(let s): out += s
            case .softBreak: out += "\n"
            case .lineBreak: out += "\n"
            case .emphasis(let c), .strong(let c), .strikethrough(let c): appendPlainText(c, to: &out)
            case .link(_, _, let c), .image(_, _, let c): appendPlainText(c, to: &out)
            case .citation(let numbers): out += numbers.map { "[\($0)]" }.joined()
            }
        }
    }
}
