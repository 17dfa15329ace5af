/// Finds JSON written into an SSE body without `data:` framing, which an SSE decoder silently
/// ignores: Gemini's pretty-printed error object after HTTP 200, a JSON error body, or data payloads
/// captured one per line without their framing (the `chunks-jsonl` captures).
///
/// A line whose first non-blank byte is `{` or `[` starts a bare JSON value, which runs over the
/// following lines until its brackets balance (strings are skipped), at a line end. SSE lines
/// (`data:`, `event:`, comments …) never start with a bracket, so they are left to the SSE decoder.
struct UnframedJSONScanner: Sendable {
    /// A bare JSON value completed at `end`, the offset just past the line end that closed it.
    struct Value: Sendable, Hashable {
        var end: Int
        var text: String
    }

    private enum Line: Sendable {
        /// No non-blank byte yet on this line, outside any value.
        case start
        /// An SSE line (or anything else not starting a value): skipped up to its end.
        case framed
        /// Part of a bare JSON value.
        case value
    }

    /// The most bytes one bare value may hold; a longer one is handed over cut (and will fail to parse).
    let maxValueBytes: Int
    private var line = Line.start
    private var value: [UInt8] = []
    private var nesting = JSONNesting()

    init(maxValueBytes: Int) {
        self.maxValueBytes = maxValueBytes
    }

    /// Scans the next bytes and returns the bare values they complete.
    mutating func scan(_ bytes: [UInt8]) -> [Value] {
        var values: [Value] = []
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if case .value = line {
                    value.append(UInt8(ascii: "\n"))
                    if nesting.depth <= 0 || value.count > maxValueBytes { values.append(Value(end: offset + 1, text: take())) }
                }
                line = value.isEmpty ? .start : .value
                continue
            }
            switch line {
            case .framed:
                continue
            case .start:
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
                guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
                    line = .framed
                    continue
                }
                line = .value
            case .value:
                break
            }
            value.append(byte)
            nesting.track(byte)
        }
        return values
    }

    /// Ends the body and returns an unfinished bare value, if any.
    mutating func finish() -> String? {
        line = .start
        return value.isEmpty ? nil : take()
    }

    private mutating func take() -> String {
        defer {
            value.removeAll(keepingCapacity: false)
            nesting = JSONNesting()
        }
        return String(decoding: value, as: UTF8.self)
    }
}
