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

    /// - Parameter resumed: whether the reader came back with a cursor (`Last-Event-ID`, `after`), for
    ///   the metrics.
    func response(answerID: String, after: Int, resumed: Bool) -> Response {
        var headers = Self.headers
        headers[Self.answerIDHeader] = answerID
        let items = feed.items(of: answerID, after: after)
        let metrics = self.metrics
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            metrics.readerOpened(resumed: resumed)
            // A throw here (the answer was forgotten mid-stream) aborts the connection, so the client
            // sees a broken stream and can resume, rather than a clean end.
            do {
                for try await item in items {
                    switch item {
                    case .events(let events): try await writer.write(Self.frames(events))
                    case .keepalive: try await writer.write(Self.keepalive)
                    }
                }
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
