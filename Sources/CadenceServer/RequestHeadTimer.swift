import NIOCore

/// The request read timeout of one connection: a ``RequestHeadDeadline`` and the one timer it asks
/// for, on the connection's event loop. The two guard handlers tell it what they see: bytes
/// (``RequestBytesWatcher``) and request heads and response ends (``RequestGuardHandler``).
///
/// Used on the channel's event loop only.
final class RequestHeadTimer {
    private var deadline = RequestHeadDeadline()
    private var scheduled: Scheduled<Void>?
    private var opened = false
    private let timeout: TimeAmount
    private let channel: any Channel
    private let metrics: ServerMetrics

    init(timeout: TimeAmount, channel: any Channel, metrics: ServerMetrics) {
        self.timeout = timeout
        self.channel = channel
        self.metrics = metrics
    }

    func connectionOpened() {
        guard !opened else { return }
        opened = true
        perform(deadline.connectionOpened())
    }

    func bytesRead() { perform(deadline.bytesRead()) }
    func headReceived() { perform(deadline.headReceived()) }
    func requestEnded() { perform(deadline.requestEnded()) }
    func responseEnded() { perform(deadline.responseEnded()) }
    func finished() { perform(deadline.finished()) }

    private func perform(_ action: RequestHeadDeadline.Action) {
        switch action {
        case .none:
            break
        case .startTimer:
            scheduled?.cancel()
            scheduled = channel.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                self.scheduled = nil
                self.perform(self.deadline.timerFired())
            }
        case .cancelTimer:
            scheduled?.cancel()
            scheduled = nil
        case .close:
            scheduled = nil
            metrics.requestHeadTimedOut()
            Self.close(channel)
        }
    }

    /// Closes a connection the server gives up on: its input first, which a WebSocket upgrade handler
    /// still waiting for a request takes as the client leaving (rather than logging an error), then
    /// the rest.
    static func close(_ channel: any Channel) {
        channel.close(mode: .input, promise: nil)
        channel.close(promise: nil)
    }
}

/// Sees every byte a connection reads, first in its pipeline, and tells the ``RequestHeadTimer``:
/// the first byte after an idle spell begins a request whose head is now due.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timer: RequestHeadTimer

    init(timer: RequestHeadTimer) {
        self.timer = timer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { timer.connectionOpened() }
    }

    func channelActive(context: ChannelHandlerContext) {
        timer.connectionOpened()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer.finished()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        timer.bytesRead()
        context.fireChannelRead(data)
    }
}
