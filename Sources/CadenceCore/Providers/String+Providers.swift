extension StringProtocol {
    /// The string without leading and trailing spaces, tabs, carriage returns and line feeds.
    var trimmedWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return Substring(self[first...last])
    }
}

extension StringProtocol {
    /// At most `limit` characters, with an ellipsis when something was cut.
    func clipped(to limit: Int) -> String {
        count <= limit ? String(self) : String(prefix(limit)) + "…"
    }
}
