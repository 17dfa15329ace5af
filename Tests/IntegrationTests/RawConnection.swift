import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A raw TCP connection to a test server, for what an HTTP client will not do: trickle a head byte by
/// byte, send a head whose body never follows, send nothing at all, or read a refused WebSocket
/// upgrade as plain HTTP.
///
/// What arrives is collected as it comes; ``wait(for:within:until:)`` returns once a condition holds
/// (a real signal, not a sleep) and throws if the time limit passes first, so nothing hangs.
///
/// ```swift
/// let connection = try await RawConnection.open(port: server.port)
/// defer { connection.closeLater() }
/// try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
/// let reply = try await connection.wait(for: "the response") { $0.hasCompleteResponse }
/// ```
final class RawConnection: Sendable {
    struct Snapshot: Sendable, CustomStringConvertible {
        var bytes: [UInt8] = []
        /// Whether the server closed the connection (or it failed).
        var closed = false

        var text: String { String(decoding: bytes, as: UTF8.self) }
        var description: String { "\(closed ? "closed after " : "")\(text.debugDescription)" }

        /// Whether a whole response with a `Content-Length` body has arrived (after `skipping` bytes
        /// of earlier responses).
        func hasCompleteResponse(skipping: Int = 0) -> Bool { response(skipping: skipping) != nil }

        /// The response that starts `skipping` bytes in, once its head and `Content-Length` body are all here.
        func response(skipping: Int = 0) -> (status: Int, head: String, body: String, length: Int)? {
            let bytes = Array(self.bytes.dropFirst(skipping))
            guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
            let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            guard bytes.count - end.upperBound >= length else { return nil }
            let body = String(decoding: bytes[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
            let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, head, body, end.upperBound + length)
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        var what: String
        var snapshot: Snapshot
        var description: String {
            "timed out waiting for \(what); received \(snapshot.bytes.count) bytes\(snapshot.closed ? ", closed" : ""): "
                + snapshot.text.prefix(300)
        }
    }

    private struct Waiter {
        var condition: @Sendable (Snapshot) -> Bool
        var continuation: CheckedContinuation<Snapshot?, Never>
    }

    private struct State {
        var snapshot = Snapshot()
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = NIOLockedValueBox(State())
    private let channelBox = NIOLockedValueBox<(any Channel)?>(nil)

    private init() {}

    /// Connects to `127.0.0.1:port`. A server that stopped accepting still completes the TCP handshake
    /// (the kernel queues the connection), so this returns either way.
    static func open(port: Int) async throws -> RawConnection {
        let connection = RawConnection()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(connection: connection))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        connection.channelBox.withLockedValue { $0 = channel }
        return connection
    }

    /// What has arrived so far.
    var snapshot: Snapshot { state.withLockedValue { $0.snapshot } }

    /// Sends `text` as it is.
    func send(_ text: String) async throws {
        guard let channel = channelBox.withLockedValue({ $0 }) else { return }
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Closes the connection from this side.
    func close() async {
        guard let channel = channelBox.withLockedValue({ $0 }) else { return }
        try? await channel.close().get()
    }

    /// Starts closing the connection, for a `defer`: a connection left open mid-head would keep the
    /// server's graceful shutdown waiting after a failed expectation.
    func closeLater() {
        channelBox.withLockedValue { $0 }?.close(promise: nil)
    }

    /// Returns what has arrived once `condition` holds; throws ``TimedOut`` if it does not within `limit`.
    @discardableResult
    func wait(
        for what: String, within limit: Duration = .seconds(20), until condition: @escaping @Sendable (Snapshot) -> Bool
    ) async throws -> Snapshot {
        if let snapshot = await waitOrNil(within: limit, until: condition) { return snapshot }
        throw TimedOut(what: what, snapshot: snapshot)
    }

    /// Returns what has arrived once `condition` holds, or `nil` if it does not within `limit`: for
    /// asserting that something does *not* happen, which no signal can show.
    func waitOrNil(within limit: Duration, until condition: @escaping @Sendable (Snapshot) -> Bool) async -> Snapshot? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Snapshot?, Never>) in
            let (ready, id) = state.withLockedValue { state -> (Snapshot?, Int) in
                if condition(state.snapshot) { return (state.snapshot, 0) }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = Waiter(condition: condition, continuation: continuation)
                return (nil, state.nextWaiter)
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            Task {
                try? await Task.sleep(for: limit)
                self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: nil)
            }
        }
    }

    fileprivate func update(_ change: (inout Snapshot) -> Void) {
        let ready = state.withLockedValue { state -> [(CheckedContinuation<Snapshot?, Never>, Snapshot)] in
            change(&state.snapshot)
            let snapshot = state.snapshot
            let met = state.waiters.filter { $0.value.condition(snapshot) }
            for id in met.keys { state.waiters[id] = nil }
            return met.values.map { ($0.continuation, snapshot) }
        }
        for (continuation, snapshot) in ready { continuation.resume(returning: snapshot) }
    }
}

/// Collects a ``RawConnection``'s bytes and notes when it closes.
private final class Collector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let connection: RawConnection

    init(connection: RawConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        connection.update { $0.bytes += buffer.readableBytesView }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.update { $0.closed = true }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
