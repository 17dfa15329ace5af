/// One event dispatched by an ``SSEDecoder``: the `event`, `data` and `id` of a block of
/// `text/event-stream` lines ended by a blank line.
///
/// ```swift
/// var decoder = SSEDecoder()
/// let items = try decoder.feed(Array("event: token\nid: 7\ndata: hi\n\n".utf8))
/// // items == [.event(SSEEvent(type: "token", data: "hi", id: "7"))]
/// ```
public struct SSEEvent: Sendable, Hashable {
    /// The `event` field, or `"message"` when the block had none (or an empty one).
    public var type: String
    /// The `data` lines of the block joined with LF, without a final LF.
    public var data: String
    /// The last event ID when the event was dispatched: the latest valid `id` field seen on
    /// the stream so far (it carries over from earlier events), or `""` if none.
    public var id: String

    /// Creates an event.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}
