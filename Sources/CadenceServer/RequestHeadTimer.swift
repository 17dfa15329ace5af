import NIOCore

/// The timeouts and the connection counts of one connection: a ``RequestHeadDeadline``, the one
/// timer it asks for at a time, on the connection's event loop, and the connection's entries in the
/// server's ``ConnectionLedger``. The two guard handlers tell it what they see: the connection opening
/// and closing, and bytes (``RequestBytesWatcher``); request heads, ends and responses
/// (``RequestGuardHandler``).
///
/// Used on the channel's event loop only.
final class RequestHeadTimer {
    /// How long each phase of a connection may take (``RequestHeadDeadline/Timer``).
    struct Timeouts: Sendable, Hashable {
        var head: TimeAmount
        var body: TimeAmount
        var idle: TimeAmount

        func timeout(for timer: RequestHeadDeadline.Timer) -> TimeAmount {
            switch timer {
            case .head: head
            case .body: body
            case .idle: idle
            }
        }
    }

    private var deadline = RequestHeadDeadline()
    private var scheduled: Scheduled<Void>?
    private var opened = false
    /// Whether the connection is counted in the ledger, for its client `address`.
    private var counted = false
    private var address: String?
    private let timeouts: Timeouts
    private let channel: any Channel
    private let metrics: ServerMetrics
    private let ledger: ConnectionLedger

    init(timeouts: Timeouts, channel: any Channel, metrics: ServerMetrics, ledger: ConnectionLedger) {
        self.timeouts = timeouts
        self.channel = channel
        self.metrics = metrics
        self.ledger = ledger
    }

    /// The connection is active: it counts for its client address, or is closed at once when that
    /// address has `--max-connections-per-client` open already; otherwise its first head is due.
    func connectionOpened() {
        guard !opened else { return }
        opened = true
        address = channel.remoteAddress?.ipAddress
        guard ledger.open(from: address) else {
            metrics.requestRefused(code: Self.tooManyConnections)
            perform(deadline.finished())
            Self.close(channel)
            return
        }
        counted = true
        perform(deadline.connectionOpened())
    }

    /// The connection closed: its place and its count are given back.
    func connectionClosed() {
        perform(deadline.finished())
        if counted {
            counted = false
            ledger.close(from: address)
        }
    }

    func bytesRead() { perform(deadline.bytesRead()) }

    /// A request head was admitted. Returns `false` when the server has no place for one more busy
    /// connection (`--max-connections`): the caller refuses the request.
    func headReceived() -> Bool {
        perform(deadline.headReceived())
    }

    func requestEnded() { perform(deadline.requestEnded()) }
    func responseBegan() { perform(deadline.responseBegan()) }
    func responseEnded() { perform(deadline.responseEnded()) }
    func upgraded() { perform(deadline.upgraded()) }
    func finished() { perform(deadline.finished()) }

    /// The refusal code counted when a client address has too many connections open.
    static let tooManyConnections = "too_many_connections"

    @discardableResult
    private func perform(_ action: RequestHeadDeadline.Action) -> Bool {
        switch action {
        case .none:
            break
        case .startTimer(let timer):
            start(timer)
        case .cancelTimer:
            start(nil)
        case .takeSlot:
            guard ledger.takeBusySlot() else {
                perform(deadline.slotDenied())
                return false
            }
            start(.body)
        case .releaseSlot(let timer):
            ledger.releaseBusySlot()
            start(timer)
        case .close(let timer, let answering):
            scheduled = nil
            if timer == .head { metrics.requestHeadTimedOut() }
            if answering {
                channel.pipeline.fireUserInboundEventTriggered(RequestBodyTimedOut())
            } else {
                Self.close(channel)
            }
        }
        return true
    }

    /// Runs `timer` (and no other), or none.
    private func start(_ timer: RequestHeadDeadline.Timer?) {
        scheduled?.cancel()
        scheduled = timer.map { timer in
            channel.eventLoop.assumeIsolated().scheduleTask(in: timeouts.timeout(for: timer)) {
                self.scheduled = nil
                self.perform(self.deadline.timerFired(timer))
            }
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

/// The event ``RequestHeadTimer`` sends through the pipeline when a request body took longer than
/// its timeout and nothing of the response was sent: ``RequestGuardHandler`` answers 408 and closes.
struct RequestBodyTimedOut: Sendable {}

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
        timer.connectionClosed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        timer.bytesRead()
        context.fireChannelRead(data)
    }
}
