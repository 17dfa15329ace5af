import CadenceBenchmarkKit
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The floor P6 is measured against: the least a server can do to send Cadence's bytes to the same
/// readers at the same rates. SwiftNIO alone (a `ServerBootstrap`, an HTTP/1 request decoder and one
/// handler, ``FloorConnectionHandler``), on the event loops Hummingbird uses
/// (`MultiThreadedEventLoopGroup.singleton`), with no router, no log, no registry and no task per reader.
///
/// It speaks the part of Cadence's API the streams benchmark uses: `POST /v1/answers` starts an
/// answer (``FloorProduction``) and names it in `Cadence-Answer-ID`; `GET /v1/answers/{id}/events`
/// sends Cadence's SSE response head and then the answer's steps as they are produced (no replay: a
/// reader gets what is produced after it connects); `GET /healthz` answers `{"status":"ok"}`. Each
/// step becomes one HTTP/1.1 chunk, built once and handed to every event loop that holds readers of
/// the answer (``FloorReaders``): one hand-off per loop, then one `writeAndFlush` per reader.
final class FloorServer: Sendable {
    let production: FloorProduction
    private let readers: [FloorReaders]
    private let channel: any Channel

    /// The port it listens on, on 127.0.0.1.
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(production: FloorProduction, readers: [FloorReaders], channel: any Channel) {
        self.production = production
        self.readers = readers
        self.channel = channel
    }

    /// Starts listening on a free loopback port.
    static func start() async throws -> FloorServer {
        let group = MultiThreadedEventLoopGroup.singleton
        let loops = Array(group.makeIterator())
        let readers = loops.map { FloorReaders(loop: $0) }
        let production = FloorProduction(loops: loops) { step in
            var chunk = chunk(step.frames)
            if step.isLast { chunk.writeString("0\r\n\r\n") }
            for loopReaders in readers { loopReaders.send(chunk, answer: step.answer, last: step.isLast) }
        }
        let server = NIOLockedValueBox<FloorServer?>(nil)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let floor = server.withLockedValue({ $0 }) else {
                        throw BenchmarkError("the floor server is not ready")
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try channel.pipeline.syncOperations.addHandler(FloorConnectionHandler(server: floor))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let floor = FloorServer(production: production, readers: readers, channel: channel)
        server.withLockedValue { $0 = floor }
        return floor
    }

    /// The readers of the event loop `loop`.
    func readers(on loop: any EventLoop) -> FloorReaders {
        readers.first { $0.loop === loop }!
    }

    /// Stops listening (connections already open stay until the process ends).
    func stop() async {
        try? await channel.close()
    }

    /// `body` as one chunk of a chunked HTTP/1.1 body: its length in hexadecimal, CRLF, the bytes, CRLF.
    static func chunk(_ body: String) -> ByteBuffer {
        let length = String(body.utf8.count, radix: 16)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(length.utf8.count + body.utf8.count + 4 + 5)
        buffer.writeString(length)
        buffer.writeString("\r\n")
        buffer.writeString(body)
        buffer.writeString("\r\n")
        return buffer
    }
}
