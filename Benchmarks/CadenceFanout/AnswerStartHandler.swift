import CadenceBenchmarkKit
import NIOCore
import NIOHTTP1

/// Starts one answer: `POST /v1/answers`, reads the answer's id from the `Cadence-Answer-ID`
/// header and closes the connection without reading the stream (the answer goes on without it).
final class AnswerStartHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let body: String
    private let answerID: EventLoopPromise<String>

    init(query: String, answerID: EventLoopPromise<String>) {
        self.body = #"{"query":""# + query + #""}"#
        self.answerID = answerID
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1")
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/v1/answers", headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let response) = unwrapInboundIn(data) else { return }
        if response.status == .ok, let id = response.headers.first(name: "Cadence-Answer-ID") {
            answerID.succeed(id)
        } else {
            answerID.fail(BenchmarkError("POST /v1/answers answered HTTP \(response.status.code)"))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        answerID.fail(BenchmarkError("the connection closed before the answer's head"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answerID.fail(error)
        context.close(promise: nil)
    }
}
