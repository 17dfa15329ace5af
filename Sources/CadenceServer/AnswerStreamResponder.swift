import CadenceCore
import HTTPTypes
import Hummingbird

/// Streams one answer as `text/event-stream` from the registry: the events after a cursor, each
/// written as soon as it exists, and `: keepalive` while the stream is quiet. The answer's id is in
/// the `Cadence-Answer-ID` header, for resuming with `GET /v1/answers/{id}/events`.
struct AnswerStreamResponder: Sendable {
    let feed: AnswerFeed
    let metrics: ServerMetrics

    static let answerIDHeader = HTTPField.Name("Cadence-Answer-ID")!

    static let headers: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8",
        .cacheControl: "no-cache",
        HTTPField.Name("X-Accel-Buffering")!: "no",
    ]

    static let keepalive = ByteBuffer(string: ResearchEventEncoder.comment("keepalive"))

    /// The events' frames as one buffer, so events that were ready together go out in one write.
    /// A single event's frame is written as logged, without a copy.
    static func frames(_ events: [LoggedEvent]) -> ByteBuffer {
        if events.count == 1 { return events[0].frame }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(events.reduce(0) { $0 + $1.frame.readableBytes })
        for event in events {
            var frame = event.frame
            buffer.writeBuffer(&frame)
        }
        return buffer
    }

    /// How the events are written: as Cadence's research events, or as OpenAI chunks.
    enum Format: Sendable {
        /// Each event's own frame, as logged.
        case research
        /// `chat.completion.chunk` frames, ending with `data: [DONE]` (``ChatCompletionChunks``).
        case chatCompletion(ChatCompletionChunks)

        /// The frames of events that were ready together, in one buffer (empty if none has a frame).
        mutating func frames(_ events: [LoggedEvent]) -> ByteBuffer {
            switch self {
            case .research: return AnswerStreamResponder.frames(events)
            case .chatCompletion(var chunks):
                let text = events.map { chunks.frame(for: $0.event) }.joined()
                self = .chatCompletion(chunks)
                return ByteBuffer(string: text)
            }
        }

        /// What follows the answer's last event, if anything.
        var end: ByteBuffer? {
            switch self {
            case .research: nil
            case .chatCompletion: ByteBuffer(string: ChatCompletionChunks.done)
            }
        }
    }

    /// - Parameters:
    ///   - resumed: whether the reader came back with a cursor (`Last-Event-ID`, `after`), for the
    ///     metrics.
    ///   - format: how the events are written.
    func response(answerID: String, after: Int, resumed: Bool, format: Format = .research) -> Response {
        var headers = Self.headers
        headers[Self.answerIDHeader] = answerID
        let items = feed.items(of: answerID, after: after)
        let metrics = self.metrics
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            metrics.readerOpened(resumed: resumed)
            var format = format
            // A throw here (the answer was forgotten mid-stream) aborts the connection, so the client
            // sees a broken stream and can resume, rather than a clean end.
            do {
                for try await item in items {
                    switch item {
                    case .events(let events):
                        let frames = format.frames(events)
                        if frames.readableBytes > 0 { try await writer.write(frames) }
                    case .keepalive: try await writer.write(Self.keepalive)
                    }
                }
                if let end = format.end { try await writer.write(end) }
            } catch {
                metrics.readerClosed()
                throw error
            }
            // Before the end goes out, so a client that saw the end sees the count without this reader.
            metrics.readerClosed()
            try await writer.finish(nil)
        })
    }
}
