/// Tables drawn with box characters, columns shrunk (and their cells wrapped) to fit the width.
extension ANSIRenderer {
    func table(_ table: Table, width: Int) -> [String] {
        let columns = max(table.header.count, 1)
        let header = table.header.map { spans($0, .bold) }
        let rows = table.rows.map { row in (0..<columns).map { $0 < row.count ? spans(row[$0], .init()) : [] } }
        var widths = (0..<columns).map { column in
            ([header] + rows).map { $0.indices.contains(column) ? TerminalText.width(of: $0[column]) : 0 }.max() ?? 0
        }
        widths = widths.map { max($0, 1) }
        // Borders: "│ " before each column, " │" after the last: 3 per column + 1.
        let available = max(width - (3 * columns + 1), columns)
        while widths.reduce(0, +) > available {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 1 else { break }
            widths[widest] -= 1
        }
        func border(_ left: String, _ middle: String, _ right: String) -> String {
            style(left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right, .dim)
        }
        func row(_ cells: [[TerminalSpan]]) -> [String] {
            let wrappedCells = (0..<columns).map { column in
                TerminalText.wrap(column < cells.count ? cells[column] : [], width: widths[column])
            }
            let height = wrappedCells.map(\.count).max() ?? 1
            var out: [String] = []
            for lineIndex in 0..<height {
                var line = style("│", .dim)
                for column in 0..<columns {
                    let piece = lineIndex < wrappedCells[column].count ? wrappedCells[column][lineIndex] : []
                    let gap = max(widths[column] - TerminalText.width(of: piece), 0)
                    let alignment = column < table.alignments.count ? table.alignments[column] : .none
                    let left: Int
                    switch alignment {
                    case .right: left = gap
                    case .center: left = gap / 2
                    default: left = 0
                    }
                    line += " " + String(repeating: " ", count: left) + TerminalText.render(piece, colors: colors)
                    line += String(repeating: " ", count: gap - left) + " " + style("│", .dim)
                }
                out.append(line)
            }
            return out
        }
        var out = [border("┌", "┬", "┐")]
        out += row(header)
        if table.isPending {
            out.append(border("└", "┴", "┘"))
            return out
        }
        out.append(border("├", "┼", "┤"))
        for cells in rows { out += row(cells) }
        out.append(border("└", "┴", "┘"))
        return out
    }
}
