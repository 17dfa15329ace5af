import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The benchmark's HTTP client: raw SwiftNIO connections, one per reader, so that ten thousand
/// readers cost the reading side little and every byte's arrival time is read where it lands.
struct ReaderClient: Sendable {
    let group: MultiThreadedEventLoopGroup
    /// Connections being opened at once; more would overflow the server's accept backlog.
    var connectionsInFlight = 256

    /// A reader that is connected and streaming: its channel, and its result once the stream ends.
    struct Reader: Sendable {
        let path: String
        let channel: any Channel
        let done: EventLoopFuture<ReaderResult>
    }

    /// Starts one answer on the node at `port` and returns its id.
    func startAnswer(port: Int, query: String) async throws -> String {
        let loop = group.next()
        let answerID = loop.makePromise(of: String.self)
        _ = try? await open(port: port, on: loop, failing: { answerID.fail($0) }) {
            AnswerStartHandler(query: query, answerID: answerID)
        }
        return try await answerID.futureResult.get()
    }

    /// Connects one reader per path (`port` and `path` of each) and returns once every one has
    /// its response head.
    func connect(
        _ targets: [(port: Int, path: String)], expectedTokens: Int, recordsLatencies: Bool
    ) async throws -> [Reader] {
        try await throttled(targets) { target in
            try await self.connect(
                port: target.port, path: target.path, expectedTokens: expectedTokens,
                recordsLatencies: recordsLatencies)
        }
    }

    /// Opens `count` keep-alive connections to the node at `port`, each having sent one
    /// `GET /healthz` and read its whole response, and returns them open and idle.
    func connectIdle(count: Int, port: Int) async throws -> [any Channel] {
        try await throttled(Array(repeating: port, count: count)) { port in
            let loop = group.next()
            let answered = loop.makePromise(of: Void.self)
            let channel = try await open(port: port, on: loop, failing: { answered.fail($0) }) {
                HealthCheckHandler(answered: answered)
            }
            try await answered.futureResult.get()
            return channel
        }
    }

    /// `open` for every target, at most ``connectionsInFlight`` at a time.
    private func throttled<Target: Sendable, Opened: Sendable>(
        _ targets: [Target], _ open: @escaping @Sendable (Target) async throws -> Opened
    ) async throws -> [Opened] {
        let opened = NIOLockedValueBox<[Opened]>([])
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            var started = 0
            for target in targets {
                if started >= connectionsInFlight { try await tasks.next() }
                started += 1
                tasks.addTask {
                    let connection = try await open(target)
                    opened.withLockedValue { $0.append(connection) }
                }
            }
            try await tasks.waitForAll()
        }
        return opened.withLockedValue { $0 }
    }

    private func connect(port: Int, path: String, expectedTokens: Int, recordsLatencies: Bool) async throws -> Reader {
        let loop = group.next()
        let head = loop.makePromise(of: Void.self)
        let done = loop.makePromise(of: ReaderResult.self)
        let failing = { @Sendable (error: any Error) in
            head.fail(error)
            done.fail(error)
        }
        let channel = try await open(port: port, on: loop, failing: failing) {
            SSEReaderHandler(
                path: path, expectedTokens: expectedTokens, recordsLatencies: recordsLatencies, head: head, done: done)
        }
        try await head.futureResult.get()
        return Reader(path: path, channel: channel, done: done.futureResult)
    }

    /// A connection to 127.0.0.1:`port` on `loop` speaking HTTP/1.1 through the handler `handler`
    /// makes; if it cannot connect, `failing` gets the error before it is thrown.
    private func open(
        port: Int, on loop: any EventLoop, failing: @Sendable (any Error) -> Void,
        _ handler: @escaping @Sendable () -> any ChannelHandler
    ) async throws -> any Channel {
        do {
            return try await ClientBootstrap(group: loop)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(handler())
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
        } catch {
            failing(error)
            throw error
        }
    }
}
