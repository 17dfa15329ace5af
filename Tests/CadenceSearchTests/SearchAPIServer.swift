import CadenceTesting
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// A loopback server standing in for a hosted search API: each path answers from a script of
/// replies (the last one repeats), and every request is recorded. A reply may hold its answer until
/// the test releases it, for slow-service tests.
final class SearchAPIServer: Sendable {
    struct Reply: Sendable {
        var status: HTTPResponse.Status = .ok
        var headers: [(String, String)] = []
        var body: String
        /// Holds the reply until ``release()`` (a service that does not answer in time).
        var held = false

        static func json(_ body: String) -> Reply { Reply(headers: [("Content-Type", "application/json")], body: body) }
        static func xml(_ body: String) -> Reply { Reply(headers: [("Content-Type", "application/xml")], body: body) }
    }

    /// One request as the server saw it.
    struct Seen: Sendable {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
        var body: String
    }

    private let scripts: NIOLockedValueBox<[String: [Reply]]>
    private let seen = NIOLockedValueBox<[Seen]>([])
    private let gate: AsyncStream<Void>
    private let opener: AsyncStream<Void>.Continuation
    private let server = NIOLockedValueBox<LoopbackServer?>(nil)

    var baseURL: String { server.withLockedValue { $0!.baseURL } }
    var requests: [Seen] { seen.withLockedValue { $0 } }

    /// A server answering `paths` (such as `"/search"`) from their scripts.
    static func start(_ scripts: [String: [Reply]]) async throws -> SearchAPIServer {
        let api = SearchAPIServer(scripts: scripts)
        let router = Router()
        for path in scripts.keys {
            let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
                try await api.answer(request, path: path)
            }
            router.get(RouterPath(path), use: handler)
            router.post(RouterPath(path), use: handler)
        }
        let running = try await LoopbackServer.start(router: router, label: "search-api")
        api.server.withLockedValue { $0 = running }
        return api
    }

    private init(scripts: [String: [Reply]]) {
        self.scripts = NIOLockedValueBox(scripts)
        (gate, opener) = AsyncStream<Void>.makeStream()
    }

    private func answer(_ request: Request, path: String) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        seen.withLockedValue {
            $0.append(
                Seen(
                    method: "\(request.method)", path: request.uri.path, query: request.uri.query ?? "",
                    headers: headers, body: String(buffer: body)))
        }
        let reply = scripts.withLockedValue { scripts -> Reply in
            var script = scripts[path] ?? []
            let reply = script.count > 1 ? script.removeFirst() : script.first ?? Reply(status: .notFound, body: "")
            scripts[path] = script
            return reply
        }
        if reply.held { for await _ in gate {} }
        var fields = HTTPFields()
        for (name, value) in reply.headers { fields[HTTPField.Name(name)!] = value }
        return Response(status: reply.status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: reply.body)))
    }

    /// Lets held replies go (they answer into connections the client has closed).
    func release() {
        opener.finish()
    }

    func shutdown() async {
        release()
        await server.withLockedValue { $0 }?.shutdown()
    }
}
