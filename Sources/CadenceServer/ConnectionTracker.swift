import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Remembers the server's open connections and whether each has sent anything, so that shutting
/// down can close the ones that never did.
///
/// Why: with the WebSocket-upgrading HTTP/1 pipeline, a connection that has not sent its first
/// request is still negotiating and ignores a graceful shutdown, so one idle spare opened by a
/// client's connection pool would keep the server from ever stopping.
final class ConnectionTracker: Sendable {
    private struct Entry {
        var channel: any Channel
        var hasSentBytes: Bool
    }

    private let connections = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])

    /// Wraps a child channel so that its connections are tracked.
    func tracking<Inner: ServerChildChannel>(_ inner: Inner) -> TrackedChildChannel<Inner> {
        TrackedChildChannel(inner: inner, tracker: self)
    }

    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        connections.withLockedValue { $0[id] = Entry(channel: channel, hasSentBytes: false) }
        channel.closeFuture.whenComplete { _ in
            self.connections.withLockedValue { _ = $0.removeValue(forKey: id) }
        }
    }

    func markActive(_ id: ObjectIdentifier) {
        connections.withLockedValue { $0[id]?.hasSentBytes = true }
    }

    /// Closes every connection that has never sent a byte.
    func closeSilentConnections() {
        let silent = connections.withLockedValue { $0.values.filter { !$0.hasSentBytes }.map(\.channel) }
        for channel in silent { channel.close(promise: nil) }
    }
}

/// A child channel that reports its connections to a ``ConnectionTracker``.
struct TrackedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let tracker: ConnectionTracker

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        tracker.add(channel)
        let marker = FirstReadMarker(tracker: tracker, id: ObjectIdentifier(channel))
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(marker, position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Marks its connection active on the first bytes read, then leaves the pipeline.
private final class FirstReadMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    let tracker: ConnectionTracker
    let id: ObjectIdentifier

    init(tracker: ConnectionTracker, id: ObjectIdentifier) {
        self.tracker = tracker
        self.id = id
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        tracker.markActive(id)
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
