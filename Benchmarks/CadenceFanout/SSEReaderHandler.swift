import CadenceBenchmarkKit
import CadenceCore
import NIOCore
import NIOHTTP1

/// One SSE reader on one keep-alive HTTP/1.1 connection: sends `GET path`, decodes the body with
/// ``SSEDecoder`` as it arrives, and for every token event records arrival minus the production
/// time the token carries. It checks that sequence numbers follow each other with no gap or repeat.
/// After `complete` it reports its result and leaves the connection open for the benchmark to close.
///
/// `head` completes when the response head arrives (the reader is connected); `done` when the
/// stream ends, however it ends.
final class SSEReaderHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let path: String
    private let recordsLatencies: Bool
    private let head: EventLoopPromise<Void>
    private let done: EventLoopPromise<ReaderResult>
    private var decoder = SSEDecoder()
    private var items: [SSEItem] = []
    private var result = ReaderResult()
    private var lastSequence = 0
    private var finished = false

    init(
        path: String, expectedTokens: Int, recordsLatencies: Bool, head: EventLoopPromise<Void>,
        done: EventLoopPromise<ReaderResult>
    ) {
        self.path = path
        self.head = head
        self.done = done
        self.recordsLatencies = recordsLatencies
        // Room for every token up front, so recording never reallocates while events arrive.
        if recordsLatencies { result.latencies.reserveCapacity(expectedTokens) }
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1")
        headers.add(name: "Accept", value: "text/event-stream")
        context.write(
            wrapOutboundOut(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers))),
            promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response):
            if response.status == .ok {
                head.succeed()
            } else {
                end(context: context, failure: "HTTP \(response.status.code)")
            }
        case .body(let buffer):
            let now = monotonicNanoseconds()
            do {
                try buffer.withUnsafeReadableBytes { bytes in try decoder.feed(bytes, into: &items) }
            } catch {
                end(context: context, failure: "\(error)")
                return
            }
            for item in items {
                guard case .event(let event) = item else { continue }
                received(event, at: now)
            }
            items.removeAll(keepingCapacity: true)
            // Done, but the connection stays open until every reader is done: closing ten thousand
            // sockets as their answers end would load the server (and this process) while other
            // answers still stream, and the figures are about streaming.
            if result.completed { end(context: context, failure: nil, closing: false) }
        case .end:
            end(
                context: context, failure: result.completed ? nil : "the response ended before complete",
                closing: !result.completed)
        }
    }

    private func received(_ event: SSEEvent, at now: Int64) {
        if result.firstArrival == 0 { result.firstArrival = now }
        if let sequence = Int(event.id) {
            if sequence <= lastSequence {
                result.duplicates += 1
            } else {
                result.missing += sequence - lastSequence - 1
                lastSequence = sequence
            }
        }
        switch event.type {
        case "token":
            result.tokens += 1
            if recordsLatencies, let produced = Self.productionTime(in: event.data) {
                result.latencies.append(now - produced)
            }
        case "complete":
            result.completed = true
            result.completeArrival = now
        case "error":
            result.failure = "error event: \(event.data)"
        default:
            break
        }
    }

    /// The digits after `"content":"` in a token's JSON.
    static func productionTime(in data: String) -> Int64? {
        var utf8 = data.utf8[...]
        let marker = Array(#""content":""#.utf8)
        while !utf8.isEmpty, !utf8.starts(with: marker) { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in utf8.dropFirst(marker.count) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(context: context, failure: result.completed ? nil : "the connection closed before complete")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end(context: context, failure: "\(error)")
    }

    private func end(context: ChannelHandlerContext, failure: String?, closing: Bool = true) {
        if closing { context.close(promise: nil) }
        guard !finished else { return }
        finished = true
        if let failure, result.failure == nil { result.failure = failure }
        head.fail(BenchmarkError(result.failure ?? "the stream ended before its head"))
        done.succeed(result)
    }
}
