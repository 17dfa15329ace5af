import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A loopback HTTP server that replays scripted responses, for testing clients over real sockets.
///
/// Each path has a queue of ``ReplayResponse``s: every request to it takes the next one (the last
/// one repeats). Bodies are written in many separate writes, so the client sees realistic chunking.
///
/// ```swift
/// let server = try await ReplayServer.start(routes: [
///     "/v1/chat/completions": [.status(429, headers: ["retry-after": "1"]), .stream(capturedBytes)],
/// ])
/// defer { Task { await server.shutdown() } }
/// ```
public final class ReplayServer: Sendable {
    private let loopback: LoopbackServer
    private let recorded: NIOLockedValueBox<[RecordedRequest]>

    public var port: Int { loopback.port }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { loopback.baseURL }

    /// The requests received so far, in order.
    public var requests: [RecordedRequest] { recorded.withLockedValue { $0 } }

    private init(loopback: LoopbackServer, recorded: NIOLockedValueBox<[RecordedRequest]>) {
        self.loopback = loopback
        self.recorded = recorded
    }

    /// Starts the server on 127.0.0.1 with a free port. A path may end in `*` to match any suffix.
    public static func start(routes: [String: [ReplayResponse]]) async throws -> ReplayServer {
        let recorded = NIOLockedValueBox<[RecordedRequest]>([])
        let queues = NIOLockedValueBox(routes)
        let router = Router()
        router.post("**") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 16 << 20)
            let path = request.uri.path
            let headers = Dictionary(
                request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
            recorded.withLockedValue {
                $0.append(RecordedRequest(path: request.uri.description, headers: headers, body: String(buffer: body)))
            }
            let next: ReplayResponse? = queues.withLockedValue { queues in
                guard let key = queues.keys.first(where: { Self.matches(pattern: $0, path: path) }),
                    var queue = queues[key], !queue.isEmpty
                else { return nil }
                let response = queue.count > 1 ? queue.removeFirst() : queue[0]
                queues[key] = queue
                return response
            }
            guard let next else {
                return Response(
                    status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "no script for \(path)")))
            }
            return next.response()
        }
        let loopback = try await LoopbackServer.start(router: router, label: "cadence.replay")
        return ReplayServer(loopback: loopback, recorded: recorded)
    }

    /// Stops the server and waits for it.
    public func shutdown() async {
        await loopback.shutdown()
    }

    static func matches(pattern: String, path: String) -> Bool {
        pattern.hasSuffix("*") ? path.hasPrefix(pattern.dropLast()) : path == pattern
    }
}

/// A request the ``ReplayServer`` received.
public struct RecordedRequest: Sendable, Hashable {
    public var path: String
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: String
}

/// One scripted response.
public struct ReplayResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// The sizes of successive writes, cycled; one write of the whole body when empty.
    public var writeSizes: [Int]

    public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8], writeSizes: [Int] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.writeSizes = writeSizes
    }

    /// A 200 streaming response written in small writes of varying size.
    public static func stream(
        _ body: [UInt8], contentType: String = "text/event-stream", writeSizes: [Int] = [7, 1, 64, 3, 200, 13, 2, 31]
    ) -> ReplayResponse {
        ReplayResponse(status: 200, headers: ["content-type": contentType], body: body, writeSizes: writeSizes)
    }

    /// An error status with a JSON body.
    public static func status(_ status: Int, headers: [String: String] = [:], body: String = "") -> ReplayResponse {
        ReplayResponse(
            status: status, headers: headers.merging(["content-type": "application/json"]) { first, _ in first },
            body: Array(body.utf8))
    }

    func response() -> Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let body = self.body
        let sizes = writeSizes.filter { $0 > 0 }
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields,
            body: ResponseBody { writer in
                var offset = 0
                var turn = 0
                while offset < body.count {
                    let size = sizes.isEmpty ? body.count : sizes[turn % sizes.count]
                    let end = min(offset + size, body.count)
                    try await writer.write(ByteBuffer(bytes: body[offset..<end]))
                    offset = end
                    turn += 1
                }
                try await writer.finish(nil)
            })
    }
}
