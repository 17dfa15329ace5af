/// The first JSON object written somewhere in free text: a model's reply that was asked to be only
/// a JSON object but came wrapped in prose or a code fence.
///
/// One pass over the UTF-8 bytes. Outside a candidate, a `{` opens one; inside, strings (with their
/// escapes) are skipped and brackets counted, and the bracket that brings the count back to zero
/// closes it. A closed candidate is parsed once; when it is not a JSON object, the scan goes on after it,
/// never back into it. Every byte is scanned once and parsed at most once, so ``steps`` (bytes
/// scanned plus bytes parsed) is at most twice the text's UTF-8 length, whatever the text.
///
/// The price of never scanning a byte twice: an object inside a candidate that does not parse
/// (`{ note {"queries": []} }`), or after a `{` that is never closed, is not found.
///
/// The scan is a loop of an answer's work, so it stops early, finding nothing, when its task is
/// cancelled: a cancelled answer's reply is not worth reading to the end.
///
/// ```swift
/// let found = EmbeddedJSONObject(in: #"Sure! {"queries": ["bm25"]} Hope this helps."#)
/// found.object?["queries"]    // ["bm25"]
/// found.steps                 // at most twice the text's UTF-8 length
/// ```
public struct EmbeddedJSONObject: Sendable {
    /// The first candidate that parsed as a JSON object, or `nil`.
    public private(set) var object: [String: JSONValue]?
    /// The work done, in bytes scanned plus bytes parsed.
    public private(set) var steps = 0
    /// Whether the scan stopped early because its task was cancelled.
    public private(set) var wasCancelled = false

    /// How many bytes are scanned between two looks at the task's cancellation.
    static let cancellationInterval = 4_096

    /// Scans `text` for its first JSON object.
    public init(in text: String) {
        var text = text
        text.withUTF8 { scan($0) }
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        var open: Int?
        var nesting = JSONNesting()
        for index in bytes.indices {
            if index % Self.cancellationInterval == 0, Task.isCancelled {
                wasCancelled = true
                return
            }
            let byte = bytes[index]
            steps += 1
            guard let start = open else {
                if byte == UInt8(ascii: "{") {
                    open = index
                    nesting = JSONNesting()
                    nesting.track(byte)
                }
                continue
            }
            nesting.track(byte)
            guard nesting.depth <= 0 else { continue }
            // Closed, or closed wrongly (`{]`, which will not parse): either way the candidate ends here.
            open = nil
            let candidate = UnsafeBufferPointer(rebasing: bytes[start...index])
            steps += candidate.count
            if let object = (try? JSONTextParser.parse(candidate))?.objectValue {
                self.object = object
                return
            }
        }
    }
}
