public import CadenceCore
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A scripted OpenAI-compatible model server on 127.0.0.1, for testing what calls a model
/// (`ModelClient`, the research engine, `cadence serve --provider openai`) over real sockets.
///
/// It answers `POST /v1/chat/completions` with whatever `reply` says for that request: streamed text
/// in the real `chat.completion.chunk` format (usage chunk and `data: [DONE]` included), an HTTP
/// error with `Retry-After`, an error object mid-stream, a stream cut before its finish reason,
/// silence, slow tokens on the injected clock, or captured bytes replayed as they are.
///
/// ```swift
/// let model = try await ScriptedModelServer.start { request, index in
///     index == 0 ? .status(429, retryAfter: "2") : .text(["Hello", " world"])
/// }
/// let client = ModelClient(provider: ModelProvider(kind: .openAI, baseURL: model.baseURL, model: "m"))
/// // … the first call gets 429, the retry streams "Hello world" …
/// await model.waitUntilClosed(request: 1)
/// await model.shutdown()
/// ```
public final class ScriptedModelServer: Sendable {
    /// What the server answers to one request.
    public enum Reply: Sendable {
        /// The pieces as content deltas, then a chunk with `finishReason`, a usage chunk and `[DONE]`.
        case text([String], finishReason: String = "stop", usage: Usage = Usage(input: 10, output: 20))
        /// An HTTP error with an OpenAI-style error body, and `Retry-After` if given.
        case status(Int, retryAfter: String? = nil, message: String = "scripted failure")
        /// The pieces, then an event carrying `{"error": {…}}`, then the end of the stream.
        case errorMidStream([String], message: String)
        /// The pieces, then the stream ends with no finish reason and no `[DONE]`.
        case truncated([String])
        /// The pieces, then nothing at all until the client closes the connection.
        case silent([String])
        /// The pieces, each after `interval` on the server's clock, then the finish as for `text`.
        case slow([String], interval: Duration)
        /// These bytes as the body, as they are (a captured provider stream, say).
        case raw([UInt8], contentType: String = "text/event-stream")
    }

    /// Token counts reported in the usage chunk.
    public struct Usage: Sendable, Hashable {
        public var input, output: Int

        public init(input: Int, output: Int) {
            self.input = input
            self.output = output
        }
    }

    /// A request the server received.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header fields, names lowercased.
        public var headers: [String: String]
        public var body: String
        /// The body parsed as JSON, if it is JSON.
        public var json: JSONValue? { try? JSONValue(parsing: body) }
        /// The `messages` of the request as (role, content) pairs, in order.
        public var messages: [(role: String, content: String)] {
            (json?["messages"]?.arrayValue ?? []).map {
                ($0["role"]?.stringValue ?? "", $0["content"]?.stringValue ?? "")
            }
        }
    }

    private struct State {
        var requests: [Request] = []
        var closed: [FaultLatch] = []
        var arrivals: [(count: Int, latch: FaultLatch)] = []
    }

    private let loopback: LoopbackServer
    private let state: NIOLockedValueBox<State>

    /// `http://127.0.0.1:PORT/v1`: the base URL an OpenAI-compatible client is given.
    public var baseURL: String { loopback.baseURL + "/v1" }

    /// The requests received so far, in order.
    public var requests: [Request] { state.withLockedValue { $0.requests } }

    private init(loopback: LoopbackServer, state: NIOLockedValueBox<State>) {
        self.loopback = loopback
        self.state = state
    }

    /// Starts the server on 127.0.0.1 with a free port.
    ///
    /// - Parameters:
    ///   - clock: what `slow` replies wait on.
    ///   - reply: the reply to each request, given the request and its index (from 0).
    public static func start(
        clock: any Clock<Duration> = ContinuousClock(),
        reply: @escaping @Sendable (Request, Int) -> Reply
    ) async throws -> ScriptedModelServer {
        let state = NIOLockedValueBox(State())
        let router = Router(context: ConnectionContext.self)
        router.post("/v1/chat/completions") { request, context -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 16 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let received = Request(
                method: "POST", path: request.uri.path, headers: headers, body: String(buffer: body))
            let (index, closed) = record(received, in: state)
            let writer = ScriptedReplyWriter(clock: clock, closed: closed, connection: context.channel)
            return writer.response(for: reply(received, index))
        }
        let loopback = try await LoopbackServer.start(router: router, label: "cadence.scripted-model")
        return ScriptedModelServer(loopback: loopback, state: state)
    }

    /// A request context that keeps the connection, so a silent reply can wait for it to close.
    struct ConnectionContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        let channel: any Channel

        init(source: ApplicationRequestContextSource) {
            coreContext = CoreRequestContextStorage(source: source)
            channel = source.channel
        }
    }

    private static func record(_ request: Request, in state: NIOLockedValueBox<State>) -> (Int, FaultLatch) {
        let (index, closed, woken) = state.withLockedValue { state -> (Int, FaultLatch, [FaultLatch]) in
            state.requests.append(request)
            state.closed.append(FaultLatch())
            let count = state.requests.count
            let woken = state.arrivals.filter { $0.count <= count }.map(\.latch)
            state.arrivals.removeAll { $0.count <= count }
            return (count - 1, state.closed[count - 1], woken)
        }
        for latch in woken { latch.open() }
        return (index, closed)
    }

    /// Returns once `count` requests have arrived.
    public func waitForRequests(_ count: Int) async {
        let latch = FaultLatch()
        let arrived = state.withLockedValue { state -> Bool in
            if state.requests.count >= count { return true }
            state.arrivals.append((count, latch))
            return false
        }
        if !arrived { await latch.wait() }
    }

    /// Returns once the response to request `index` (from 0) is over: written to its end, or its
    /// connection closed by the client.
    public func waitUntilClosed(request index: Int) async {
        await waitForRequests(index + 1)
        await state.withLockedValue { $0.closed[index] }.wait()
    }

    /// Whether the response to request `index` is over.
    public func isClosed(request index: Int) -> Bool {
        state.withLockedValue { index < $0.closed.count && $0.closed[index].isOpen }
    }

    /// Stops the server and waits for it.
    public func shutdown() async {
        await loopback.shutdown()
    }
}
