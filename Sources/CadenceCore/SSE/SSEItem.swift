/// What an ``SSEDecoder`` reads from a stream, in stream order.
///
/// ```swift
/// var decoder = SSEDecoder()
/// for item in try decoder.feed(Array(": keepalive\nretry: 3000\ndata: x\n\n".utf8)) {
///     switch item {
///     case .event(let event): print("event", event.data)      // "x"
///     case .comment(let text): print("comment", text)         // "keepalive"
///     case .retry(let milliseconds): print("retry", milliseconds)  // 3000
///     }
/// }
/// ```
public enum SSEItem: Sendable, Hashable {
    /// A dispatched event (a block of fields ended by a blank line, with at least one `data` line).
    case event(SSEEvent)
    /// A comment line (`: text`): the text after the colon, with one leading space removed.
    /// Servers send comments such as `: keepalive` to keep quiet connections open.
    case comment(String)
    /// A valid `retry` field: the reconnection time in milliseconds, clamped to `Int.max`.
    case retry(Int)
}
