import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded

extension GuardedChildChannel {
    /// Sets up one connection that never was: the real ``setup(channel:logger:)`` on a throwaway
    /// `EmbeddedChannel`, on the calling thread, which is then closed. The server calls it once
    /// before it binds its port.
    ///
    /// Why: the first connection on an event loop is the first time this process builds the HTTP
    /// pipeline's generic types (`ByteToMessageHandler<HTTPRequestDecoder>`, found by mangled name)
    /// and checks its handlers' conformances (`handler as? _ChannelInboundHandler`). When two event
    /// loops do that first setup at the same instant, the Swift 6.3.1 runtime on Linux can crash:
    /// SIGSEGV in `swift_checkMetadataState` under `swift_conformsToProtocolMaybeInstantiateSuperclasses`,
    /// from `__swift_instantiateConcreteTypeFromMangledName` in NIO's `configureUpgradableHTTPServerPipeline`,
    /// while the other loop scans conformances in `ChannelHandlerContext.init`. A `cadence serve` node
    /// of the multi-node tests died so once in 90 runs. Once the setup has run on one thread, the
    /// loops find every lookup cached.
    ///
    /// Evidence (2026-11-26, debug build, 2 cores under load): a probe process whose 4 threads,
    /// released together, each ran `HTTP1WebSocketUpgradeChannel.setup` on their own `EmbeddedChannel`
    /// crashed with that same backtrace in 12 of 12,000 runs; the same probe running the setup once
    /// first, as this does, crashed in 0 of 12,000 (runs alternated). The crash remained with the
    /// runtime's conformance cache by type descriptor switched off
    /// (`SWIFT_DEBUG_ENABLE_CACHE_PROTOCOL_CONFORMANCES_BY_TYPE_DESCRIPTOR=false`: 3 of 2,500). Through
    /// `cadence serve` itself (8 connections at once the moment it listens) it did not crash in 5,500
    /// runs without the warm-up (1,500 of them with `--postgres`), so the server's own rate is below
    /// what a loop here can measure.
    ///
    /// - Parameter channel: the channel to set up and close (a fresh one unless a test passes its own).
    /// - Returns: what ``setup(channel:logger:)`` produced, for tests.
    @discardableResult
    func warmUp(on channel: EmbeddedChannel = EmbeddedChannel(), logger: Logger) throws -> Value {
        var outcome: Result<Value, any Error>?
        setup(channel: channel, logger: logger).assumeIsolated().whenComplete { outcome = $0 }
        channel.embeddedEventLoop.run()
        channel.close(promise: nil)
        channel.embeddedEventLoop.run()
        guard let outcome else { throw WarmUpError() }
        return try outcome.get()
    }
}

/// The warm-up's setup did not complete synchronously, as setting up a pipeline on an
/// `EmbeddedChannel` always does.
struct WarmUpError: Error, CustomStringConvertible {
    var description: String { "the connection warm-up did not finish setting up its pipeline" }
}
