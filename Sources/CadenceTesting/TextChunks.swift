extension StringProtocol {
    /// The text cut into pieces of `size` characters (the last may be shorter): how the tests and
    /// benchmarks stream a known answer in chunks that never split a grapheme cluster.
    ///
    /// ```swift
    /// "Hello, world".chunks(ofCharacters: 5)  // ["Hello", ", wor", "ld"]
    /// ```
    public func chunks(ofCharacters size: Int) -> [String] {
        precondition(size > 0, "a chunk holds at least one character")
        var result: [String] = []
        var rest = self[...]
        while !rest.isEmpty {
            result.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return result
    }
}
