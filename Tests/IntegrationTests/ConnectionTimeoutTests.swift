import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import CadenceServer

/// The connection guard's timers and counts on real pipelines (NIO's HTTP/1 codec and the guard's
/// handlers), on an `EmbeddedEventLoop` whose time the test advances: an idle keep-alive connection
/// is closed after the idle timeout, a slow body after the body timeout (408 first), a client address
/// past its connection cap at once, and only busy connections take `--max-connections` places.
@Suite("Connection timeouts")
struct ConnectionTimeoutTests {
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// One guarded connection from `address`, set up as the server sets up each of its connections.
    static func connect(
        _ requestGuard: RequestGuard, from address: String = "10.0.0.1", port: Int = 40_000
    ) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
        try requestGuard.install(on: channel)
        try channel.connect(to: SocketAddress(ipAddress: address, port: port)).wait()
        return channel
    }

    static func requestGuard(_ change: (inout ServerConfiguration) -> Void = { _ in }) throws -> RequestGuard {
        var configuration = ServerConfiguration()
        configuration.requestReadTimeout = .seconds(10)
        change(&configuration)
        return try RequestGuard(configuration: configuration, metrics: ServerMetrics())
    }

    /// Sends `text` as bytes from the client.
    static func send(_ text: String, on channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    /// Answers the request the guard passed on, as Hummingbird would: a head, then the end.
    static func respond(on channel: EmbeddedChannel) throws {
        while let _ = try channel.readInbound(as: HTTPServerRequestPart.self) {}
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    }

    /// Everything the server wrote to the client, as text.
    static func written(by channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    @Test("an idle keep-alive connection is closed after the idle timeout, and not before")
    func idleKeepAliveIsClosed() throws {
        let requestGuard = try Self.requestGuard { $0.idleTimeout = .seconds(3) }
        let channel = try Self.connect(requestGuard)
        try Self.send(Self.healthz, on: channel)
        try Self.respond(on: channel)
        #expect(try Self.written(by: channel).hasPrefix("HTTP/1.1 200"))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2_900))
        #expect(channel.isActive, "closed before the idle timeout")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive, "an idle keep-alive connection outlived the idle timeout")
    }

    @Test("the idle timeout follows --request-timeout when it is not given")
    func idleTimeoutDefaultsToTheRequestTimeout() throws {
        let channel = try Self.connect(Self.requestGuard { $0.requestReadTimeout = .seconds(5) })
        try Self.send(Self.healthz, on: channel)
        try Self.respond(on: channel)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_900))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive)
    }

    @Test("a request body slower than the body timeout gets 408 and its connection closes")
    func slowBodyIsClosed() throws {
        let channel = try Self.connect(Self.requestGuard { $0.requestBodyTimeout = .seconds(2) })
        try Self.send(
            "POST /v1/answers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"qu",
            on: channel)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_500))
        try Self.send("ery\"", on: channel)  // bytes still trickle in: the timeout is for the whole body
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(600))
        let reply = try Self.written(by: channel)
        #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply)")
        #expect(reply.contains("\"request_timeout\""))
        #expect(reply.lowercased().contains("connection: close"))
        #expect(!channel.isActive)
    }

    @Test("a body whose response already began is closed without a 408")
    func slowBodyAfterAResponseBegan() throws {
        let channel = try Self.connect(Self.requestGuard { $0.requestBodyTimeout = .seconds(2) })
        try Self.send("POST /v1/answers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", on: channel)
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        _ = try Self.written(by: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        #expect(!channel.isActive)
        #expect(try Self.written(by: channel).isEmpty)
    }

    @Test("a streaming response is not timed by the idle or body timeouts")
    func streamingResponseIsNotTimed() throws {
        let channel = try Self.connect(Self.requestGuard { $0.requestReadTimeout = .seconds(1) })
        try Self.send(Self.healthz, on: channel)
        while let _ = try channel.readInbound(as: HTTPServerRequestPart.self) {}
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)  // idle now, and timed
    }

    @Test("a client address past --max-connections-per-client has its new connections closed at once")
    func perClientCap() throws {
        let requestGuard = try Self.requestGuard { $0.maxConnectionsPerClient = 3 }
        let first = try (0..<3).map { try Self.connect(requestGuard, port: 40_000 + $0) }
        #expect(first.allSatisfy { $0.isActive })
        let fourth = try Self.connect(requestGuard, port: 40_003)
        #expect(!fourth.isActive, "a fourth connection from the same address was kept")
        let other = try Self.connect(requestGuard, from: "10.0.0.2")
        #expect(other.isActive, "another address is not limited by the first one's connections")

        // A closed connection gives its count back.
        _ = try first[0].finish()
        let again = try Self.connect(requestGuard, port: 40_004)
        #expect(again.isActive)
    }

    @Test("--max-connections counts busy connections: idle ones take no place, a request past the limit gets 503")
    func busyConnectionsOnly() throws {
        let requestGuard = try Self.requestGuard { $0.maxConnections = 2 }
        // Two connections that sent one request each and now rest, and one that never sent anything.
        let resting = try (0..<2).map { try Self.connect(requestGuard, port: 40_000 + $0) }
        for channel in resting {
            try Self.send(Self.healthz, on: channel)
            try Self.respond(on: channel)
        }
        let silent = try Self.connect(requestGuard, port: 40_002)
        #expect(requestGuard.ledger.busyConnections == 0)

        // Two busy connections fill the limit…
        let busy = try (0..<2).map { try Self.connect(requestGuard, port: 40_010 + $0) }
        for channel in busy { try Self.send(Self.healthz, on: channel) }
        #expect(requestGuard.ledger.busyConnections == 2)
        // …so a request from a third gets 503 server_busy with Retry-After, and is not passed on.
        try Self.send(Self.healthz, on: silent)
        #expect(try silent.readInbound(as: HTTPServerRequestPart.self) == nil)
        let refusal = try Self.written(by: silent)
        #expect(refusal.hasPrefix("HTTP/1.1 503"), "\(refusal)")
        #expect(refusal.lowercased().contains("retry-after: 1"))
        #expect(refusal.contains("\"server_busy\""))

        // Once one is answered its place is free again.
        try Self.respond(on: busy[0])
        #expect(requestGuard.ledger.busyConnections == 1)
        try Self.send(Self.healthz, on: resting[0])
        #expect(try resting[0].readInbound(as: HTTPServerRequestPart.self) != nil)
        // A busy connection that closes gives its place back.
        _ = try busy[1].finish()
        #expect(requestGuard.ledger.busyConnections == 1)
    }
}
