/// A terminal's size in character cells.
///
/// ```swift
/// let size = TerminalSize(rows: 24, columns: 80)
/// ```
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = max(rows, 1)
        self.columns = max(columns, 1)
    }

    public var description: String { "\(columns)x\(rows)" }
}
