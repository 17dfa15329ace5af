import CadenceBenchmarkKit
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The floor P6 is measured against: the least a server can do to send Cadence's bytes to the same
/// readers at the same rates. SwiftNIO alone (a `ServerBootstrap`, an HTTP/1 request decoder and one
/// handler), on the same event loops Hummingbird uses (`MultiThreadedEventLoopGroup.singleton`), with
/// no router, no log, no registry and no task per reader.
///
/// It speaks the part of Cadence's API the streams benchmark uses: `POST /v1/answers` starts an
/// answer (its query is a ``TimestampEngine/Plan``) and names it in `Cadence-Answer-ID`;
/// `GET /v1/answers/{id}/events` sends Cadence's SSE response head and then the answer's chunks
/// (``FloorAnswer``) as they are produced (no replay: a reader gets what is produced after it
/// connects); `GET /healthz` answers `{"status":"ok"}`. Every answer waits for ``go()``; then each
/// produces its steps on its plan's fixed schedule, on an event loop of its own, builds each chunk once
/// and hands it to every event loop that holds readers of it (``FloorReaders``), one hand-off per loop.
final class FloorServer: Sendable {
    private let readers: [FloorReaders]
    private let answers = NIOLockedValueBox<[FloorAnswer]>([])
    private let channel: any Channel

    /// The port it listens on, on 127.0.0.1.
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(readers: [FloorReaders], channel: any Channel) {
        self.readers = readers
        self.channel = channel
    }

    /// Starts listening on a free loopback port.
    static func start() async throws -> FloorServer {
        let group = MultiThreadedEventLoopGroup.singleton
        let readers = group.makeIterator().map { FloorReaders(loop: $0) }
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
        let floor = FloorServer(readers: readers, channel: channel)
        server.withLockedValue { $0 = floor }
        return floor
    }

    /// Starts an answer for `query` and returns its id.
    func startAnswer(query: String) -> String {
        answers.withLockedValue { answers in
            // As long as Cadence's ids (`ans_` and 32 hexadecimal digits), so the heads are as long too.
            let number = String(answers.count)
            let id = "ans_" + String(repeating: "0", count: 32 - number.count) + number
            answers.append(FloorAnswer(id: id, plan: TimestampEngine.Plan(query: query)))
            return id
        }
    }

    /// The index of the answer named `id`, if there is one.
    func answerIndex(_ id: Substring) -> Int? {
        guard id.hasPrefix("ans_"), let index = Int(id.dropFirst(4)) else { return nil }
        return answers.withLockedValue { index < $0.count ? index : nil }
    }

    /// The readers of the event loop `loop`.
    func readers(on loop: any EventLoop) -> FloorReaders {
        readers.first { $0.loop === loop }!
    }

    /// Every answer started so far begins producing now.
    func go() {
        let start = NIODeadline.now()
        for (index, answer) in answers.withLockedValue({ $0 }).enumerated() {
            let home = readers[index % readers.count].loop
            home.scheduleTask(deadline: start + Self.timeAmount(answer.due(0))) {
                self.produce(answer, index: index, step: 0, start: start, on: home)
            }
        }
    }

    /// Builds step `step` of an answer, sends it to the readers of every loop, and schedules the next.
    private func produce(_ answer: FloorAnswer, index: Int, step: Int, start: NIODeadline, on home: any EventLoop) {
        let last = step == answer.steps - 1
        let chunk = answer.chunk(step, elapsed: .nanoseconds((NIODeadline.now() - start).nanoseconds))
        for loopReaders in readers { loopReaders.send(chunk, answer: index, last: last) }
        guard !last else { return }
        home.scheduleTask(deadline: start + Self.timeAmount(answer.due(step + 1))) {
            self.produce(answer, index: index, step: step + 1, start: start, on: home)
        }
    }

    /// Stops listening (connections already open stay until the process ends).
    func stop() async {
        try? await channel.close()
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
