/// The HTML5 named character references, for other modules of this package that decode HTML
/// (the page text extractor) without a table of their own.
package enum HTMLEntities {
    /// The UTF-8 bytes of the named reference `name` (without `&` and `;`), or `nil` if HTML has no
    /// such name. Names are case-sensitive (`&Amp;` is not `&amp;`).
    package static func decoded(named name: String) -> [UInt8]? {
        TextEscapes.entities[name]
    }
}
