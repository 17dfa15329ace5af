import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A child channel whose connections all stop when the server shuts down: one that has not yet sent
/// a whole request head is closed at once, and the rest stop as Hummingbird stops them (an idle one
/// at once, a busy one after its response).
///
/// Why: Hummingbird stops an HTTP/1 connection on NIO's `ChannelShouldQuiesceEvent` in a handler that
/// the WebSocket-upgrading pipeline adds only when the connection's first request head arrives. The
/// event that reaches a connection before then is lost, and the server waits for that connection to
/// close: until the request read timeout if it never sends a whole request head, and if its first
/// request comes just after the event, for as long as the client keeps it open as an idle keep-alive
/// (ten minutes in AsyncHTTPClient's shared client). `cadence demo` hung after Ctrl-C that way: the `DELETE` that cancels the answer
/// opened its connection just as the embedded server began to stop.
///
/// The event comes from Hummingbird however the shutdown began (``RunningServer/shutdown()``, or
/// SIGTERM for `cadence serve`), and it is handled on the connection's event loop, in order with
/// its reads: a head that arrives first is served, and nothing slips in after the close. The event
/// can reach a connection just accepted before this pipeline is set up (NIO sets it up in a task of
/// its own), and then it is lost too; but the listener closed before the event was sent, so a
/// connection set up after that (whose listener is no longer active) is closed as well.
struct QuiescingChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner

    init(_ inner: Inner) {
        self.inner = inner
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger)
            .assumeIsolated()
            .flatMapThrowing { value in
                let pipeline = channel.pipeline.syncOperations
                let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                let stopping = channel.parent.map { !$0.isActive } ?? false
                try pipeline.addHandler(CloseBeforeFirstRequest(stopping: stopping), position: .after(decoder))
                return value
            }
            .nonisolated()
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Closes its connection when the server begins to shut down before a request head has arrived.
/// It sits right after the request decoder and leaves the pipeline once the first head has passed:
/// by then the pipeline has set itself up for that request (Hummingbird's HTTP/1 handler, which
/// takes over stopping the connection, or a WebSocket upgrade, which stops with the server).
private final class CloseBeforeFirstRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Whether the server is stopping: the connection closes as soon as it is active.
    private var stopping: Bool

    init(stopping: Bool) {
        self.stopping = stopping
    }

    func handlerAdded(context: ChannelHandlerContext) {
        closeIfStopping(context)
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        closeIfStopping(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let isHead = if case .head = unwrapInboundIn(data) { true } else { false }
        context.fireChannelRead(data)
        if isHead { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        stopping = true
        closeIfStopping(context)
    }

    /// Closes the connection if the server is stopping and the connection is active. A connection
    /// accepted but not yet registered with its event loop waits for `channelActive`: closing its
    /// input before then is not allowed.
    private func closeIfStopping(_ context: ChannelHandlerContext) {
        if stopping, context.channel.isActive { RequestHeadTimer.close(context.channel) }
    }
}
