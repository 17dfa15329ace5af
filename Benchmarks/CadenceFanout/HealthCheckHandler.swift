import CadenceBenchmarkKit
import NIOCore
import NIOHTTP1

/// Sends one `GET /healthz` on a keep-alive connection and completes `answered` once the whole
/// response has arrived; the connection then stays open and idle, for the benchmark to close.
final class HealthCheckHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let answered: EventLoopPromise<Void>

    init(answered: EventLoopPromise<Void>) {
        self.answered = answered
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/healthz", headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response) where response.status != .ok:
            answered.fail(BenchmarkError("GET /healthz answered HTTP \(response.status.code)"))
        case .end:
            answered.succeed()
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        answered.fail(BenchmarkError("the connection closed before the /healthz response ended"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answered.fail(error)
        context.close(promise: nil)
    }
}
