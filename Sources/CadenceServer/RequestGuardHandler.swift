import NIOCore
import NIOHTTP1

/// Sees every request head of a connection right after the HTTP decoder, before the WebSocket
/// upgrade handler and Hummingbird: refuses the heads ``RequestAdmission`` refuses (401, 413) without
/// reading their bodies, and tells the ``RequestHeadTimer`` when heads arrive and responses end.
///
/// A refusal is the server's JSON error with `Connection: close`; the rest of the refused request
/// is dropped unread and the connection is closed once the response is out. A refusal of a
/// pipelined request waits for the responses before it, so nothing interleaves on the wire.
///
/// After a WebSocket upgrade the connection carries frames, not HTTP parts: anything that is not an
/// HTTP part passes through untouched (so its types are `Any`).
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias InboundOut = Any
    typealias OutboundIn = Any
    typealias OutboundOut = HTTPServerResponsePart

    private let admission: RequestAdmission
    private let timer: RequestHeadTimer
    private let metrics: ServerMetrics
    /// Requests passed on whose responses have not ended.
    private var responsesOwed = 0
    /// Set once a head is refused: nothing more is read from the connection.
    private var refused = false
    /// A refusal waiting for the responses before it to end.
    private var pendingRefusal: HTTPResponseHead?
    private var pendingBody = ByteBuffer()

    init(admission: RequestAdmission, timer: RequestHeadTimer, metrics: ServerMetrics) {
        self.admission = admission
        self.timer = timer
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard let part = unwrapInboundIn(data) as? HTTPServerRequestPart else {
            context.fireChannelRead(data)
            return
        }
        switch part {
        case .head(let head):
            if let refusal = admission.refusal(
                path: head.uri, authorization: head.headers.first(name: "authorization"),
                contentLength: head.headers.first(name: "content-length"))
            {
                refuse(head, with: refusal, context: context)
                return
            }
            responsesOwed += 1
            timer.headReceived()
        case .body:
            break
        case .end:
            timer.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let part = unwrapOutboundIn(data) as? HTTPServerResponsePart else {
            context.write(data, promise: promise)
            return
        }
        switch part {
        case .head(let head) where head.status == .switchingProtocols:
            timer.finished()  // a WebSocket now: no more request heads
        case .end:
            responsesOwed = max(0, responsesOwed - 1)
            timer.responseEnded()
        default:
            break
        }
        context.write(data, promise: promise)
        if case .end = part, responsesOwed == 0, pendingRefusal != nil { sendRefusal(context: context) }
    }

    private func refuse(_ head: HTTPRequestHead, with error: APIError, context: ChannelHandlerContext) {
        refused = true
        timer.finished()
        metrics.requestRefused(code: error.code)
        let body = ByteBuffer(string: error.jsonText)
        var headers = HTTPHeaders()
        for field in error.headers { headers.add(name: field.name.canonicalName, value: field.value) }
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        pendingRefusal = HTTPResponseHead(
            version: head.version, status: HTTPResponseStatus(statusCode: Int(error.status.code)), headers: headers)
        pendingBody = body
        if responsesOwed == 0 { sendRefusal(context: context) }
    }

    private func sendRefusal(context: ChannelHandlerContext) {
        guard let head = pendingRefusal else { return }
        pendingRefusal = nil
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(pendingBody))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            RequestHeadTimer.close(channel)
        }
    }
}
