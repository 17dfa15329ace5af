/// GFM table rows: splitting cells on unescaped pipes, and recognizing delimiter rows.
enum TableSyntax {
    /// The cells of a row, trimmed, with `\|` unescaped. With `columns`, pads or truncates to that count.
    /// A lone pipe is a row of no cells, as in cmark-gfm: it cannot head a table.
    static func cells(of row: ArraySlice<UInt8>, columns: Int?) -> [[UInt8]] {
        var s = ByteClass.trimmed(row)
        if s.first == UInt8(ascii: "|") {
            s = s.dropFirst()
            if s.isEmpty { return Array(repeating: [], count: columns ?? 0) }
        }
        var cells: [[UInt8]] = []
        var current: [UInt8] = []
        var endedWithPipe = false
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            endedWithPipe = false
            if c == UInt8(ascii: "\\"), i + 1 < s.endIndex {
                if s[i + 1] == UInt8(ascii: "|") {
                    current.append(s[i + 1])
                } else {
                    current.append(c)
                    current.append(s[i + 1])
                }
                i += 2
                continue
            }
            if c == UInt8(ascii: "|") {
                cells.append(Array(ByteClass.trimmed(current[...])))
                current = []
                endedWithPipe = true
            } else {
                current.append(c)
            }
            i += 1
        }
        if !endedWithPipe || cells.isEmpty { cells.append(Array(ByteClass.trimmed(current[...]))) }
        if let columns {
            if cells.count > columns { cells.removeLast(cells.count - columns) }
            while cells.count < columns { cells.append([]) }
        }
        return cells
    }

    /// Whether `row` holds only what a delimiter row may hold (pipes, colons, dashes, whitespace):
    /// if not, no continuation of the line makes it one.
    static func mayBeDelimiterRow(_ row: ArraySlice<UInt8>) -> Bool {
        row.allSatisfy { c in
            c == UInt8(ascii: "|") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-") || ByteClass.isASCIIWhitespace(c)
        }
    }

    /// The alignments of a delimiter row such as `| :-- | :-: | --: |`, or `nil` if the line is not one.
    static func delimiterRow(_ row: ArraySlice<UInt8>) -> [Table.Alignment]? {
        let s = ByteClass.trimmed(row)
        guard s.contains(UInt8(ascii: "|")) || s.contains(UInt8(ascii: ":")) else { return nil }
        guard s.contains(UInt8(ascii: "|")) else { return nil }
        var alignments: [Table.Alignment] = []
        for cell in cells(of: s, columns: nil) {
            var c = cell[...]
            guard !c.isEmpty else { return nil }
            let left = c.first == UInt8(ascii: ":")
            let right = c.last == UInt8(ascii: ":")
            if left { c = c.dropFirst() }
            if right && !c.isEmpty { c = c.dropLast() }
            guard !c.isEmpty, c.allSatisfy({ $0 == UInt8(ascii: "-") }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments.isEmpty ? nil : alignments
    }
}
