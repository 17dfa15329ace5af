import Foundation
import NIOCore
import NIOHTTP1

/// One connection to the floor server (``FloorServer``): reads requests with NIO's HTTP/1 decoder
/// and writes every response as bytes built by hand, the heads as Cadence's server writes them. An
/// events request hands its connection to the readers of its event loop and writes nothing more itself.
final class FloorConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let server: FloorServer
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(server: FloorServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var part):
            // A query is a few dozen bytes; more than 64 KB is not a request of the benchmark.
            if body.readableBytes < 1 << 16 { body.writeBuffer(&part) }
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first ?? ""
        let answerPrefix = "/v1/answers/"
        switch head.method {
        case .POST where path == "/v1/answers":
            let id = server.production.startAnswer(query: query(in: body) ?? "").id
            write("HTTP/1.1 200 OK\r\nCadence-Answer-ID: \(id)\r\ncontent-length: 0\r\n\r\n", context: context)
        case .GET where path == "/healthz":
            write(Self.healthz, context: context)
        case .GET where path.hasPrefix(answerPrefix) && path.hasSuffix("/events"):
            let id = path.dropFirst(answerPrefix.count).dropLast("/events".count)
            guard let index = server.production.answerIndex(id) else { return write(Self.notFound, context: context) }
            write(Self.eventsHead(answerID: String(id)), context: context)
            server.readers(on: context.eventLoop).add(context.channel, answer: index)
        default:
            write(Self.notFound, context: context)
        }
    }

    private func write(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
    }

    /// The `query` of a `{"query": "…"}` body.
    private func query(in body: ByteBuffer) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        return (object as? [String: Any])?["query"] as? String
    }

    static let healthz =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 16\r\n\r\n{\"status\":\"ok\"}\n"

    static let notFound = "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"

    /// The head Cadence's server sends before an answer's events.
    static func eventsHead(answerID: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
            + "X-Accel-Buffering: no\r\nCadence-Answer-ID: \(answerID)\r\nDate: \(httpDate())\r\n"
            + "transfer-encoding: chunked\r\n\r\n"
    }

    /// Now, as an HTTP `Date` header writes it.
    private static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
