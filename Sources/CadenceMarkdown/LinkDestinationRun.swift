/// The link destinations that start inside one run of destination bytes, each found from one pass
/// over the run: an inline parse's memo for ``LinkSyntax/scanDestination(_:_:work:)``.
///
/// A destination (not in `<…>`) ends at its first unbalanced `)`, or at the end of its run (a space,
/// a control character or the end of the text) if its parentheses are balanced there, and fails at
/// a 33rd level of them. Scanned one by one, each `](` in a run such as `[a](b` repeated reads on to
/// 32 levels further: 32 times the run. Here the run is read once. With `p` the count of `(` minus
/// `)` from the run's start, a destination that starts at level `L` (after the `(` that took `p` to
/// `L`) ends where `p` first falls to `L - 1`, fails where it first reaches `L + 33`, whichever comes
/// first, and otherwise ends with the run if `p` is `L` there. Backslash escapes pair the same way
/// from every start, since a start follows a `(` that was not escaped.
struct LinkDestinationRun {
    /// The run last read: where it starts and ends (`end` is the first byte after it).
    private var start = -1
    private var end = -1
    /// Where the destination starting at each start in the run ends, or -1 if it fails.
    private var ends: [Int: Int] = [:]
    /// Scratch: the run's parentheses, as their position and the level after them.
    private var parens: [(position: Int, level: Int)] = []
    private var nextAtLevel: [Int] = []

    /// The destination at `pos`, as ``LinkSyntax/scanDestination(_:_:work:)`` finds it, reading the
    /// run it starts once per parse. Adds the bytes it reads to `work`.
    mutating func scan(_ b: [UInt8], _ pos: Int, work: inout Int) -> (url: String, end: Int)? {
        guard pos < b.count, b[pos] != UInt8(ascii: "<") else { return LinkSyntax.scanDestination(b, pos, work: &work) }
        if pos < start || pos >= end || ends[pos] == nil { read(b, from: pos, work: &work) }
        work += 1
        guard let stop = ends[pos], stop > pos else { return nil }
        work += stop - pos
        return (TextEscapes.normalizeURL(TextEscapes.unescape(b[pos..<stop])), stop)
    }

    /// Reads the run from `from` to its end and records where each destination starting in it ends.
    private mutating func read(_ b: [UInt8], from: Int, work: inout Int) {
        parens.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        var i = from
        var level = 0
        var lowest = 0
        var highest = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\"), i + 1 < b.count, ByteClass.isASCIIPunctuation(b[i + 1]) {
                i += 2
                continue
            }
            if c <= 0x20 || c == 0x7F { break }
            if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") {
                level += c == UInt8(ascii: "(") ? 1 : -1
                lowest = min(lowest, level)
                highest = max(highest, level)
                parens.append((i, level))
            }
            i += 1
        }
        work += i - from
        start = from
        end = i
        // From the right: the nearest position after each paren where the level is each value.
        nextAtLevel.removeAll(keepingCapacity: true)
        nextAtLevel.append(contentsOf: repeatElement(Int.max, count: highest - lowest + 1))
        func next(_ target: Int) -> Int {
            target < lowest || target > highest ? Int.max : nextAtLevel[target - lowest]
        }
        func stop(startingAt level: Int) -> Int {
            let close = next(level - 1)
            let tooDeep = next(level + 33)
            if close < tooDeep { return close }
            if tooDeep != Int.max { return -1 }
            return level == (parens.last?.level ?? 0) ? end : -1
        }
        for k in parens.indices.reversed() {
            let (position, after) = parens[k]
            if b[position] == UInt8(ascii: "(") { ends[position + 1] = stop(startingAt: after) }
            nextAtLevel[after - lowest] = position
        }
        ends[from] = stop(startingAt: 0)
    }
}
