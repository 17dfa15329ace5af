import HummingbirdWebSocket
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import CadenceServer

/// The server sets up one throwaway connection before it binds its port, so that no two event loops
/// build the HTTP pipeline's types for the first time at once (see `GuardedChildChannel.warmUp`).
@Suite("Connection warm-up")
struct ConnectionWarmUpTests {
    @Test("the warm-up runs the server's real connection setup, guard included, and closes its channel")
    func warmUpRunsTheRealSetup() throws {
        let channel = EmbeddedChannel()
        var closed = false
        channel.closeFuture.assumeIsolated().whenComplete { _ in closed = true }

        let value = try Self.childChannel().warmUp(on: channel, logger: Logger(label: "test"))

        // The guard's part of the setup succeeds only once the HTTP pipeline (its request decoder)
        // is in place, so a value for this channel means the whole setup ran on it.
        #expect(value.channel === channel, "the value comes from setting up this channel")
        #expect(closed, "the warm-up's channel is closed")
    }

    @Test("a setup that fails fails the warm-up, and with it the server's start")
    func setupFailureSurfaces() throws {
        // On a channel already closed, adding the first HTTP handler fails.
        let channel = EmbeddedChannel()
        channel.close(promise: nil)
        channel.embeddedEventLoop.run()
        #expect(throws: ChannelError.ioOnClosedChannel) {
            try Self.childChannel().warmUp(on: channel, logger: Logger(label: "test"))
        }
    }

    /// The child channel `ReferenceServer` builds: HTTP/1 with WebSocket upgrades, guarded.
    static func childChannel() throws -> GuardedChildChannel<HTTP1WebSocketUpgradeChannel> {
        try RequestGuard(configuration: ServerConfiguration(), metrics: ServerMetrics())
            .guarding(
                HTTP1WebSocketUpgradeChannel(
                    responder: { _, _, _ in }, configuration: .init(), shouldUpgrade: { _, _, _ in .dontUpgrade }))
    }
}
