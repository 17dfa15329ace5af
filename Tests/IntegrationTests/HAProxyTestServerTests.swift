import AsyncHTTPClient
import CadenceTestFixtures
import CadenceTesting
import Hummingbird
import NIOCore
import Testing

@Suite("The real HAProxy test server", .needsHAProxy)
struct HAProxyTestServerTests {
    /// A tiny real server that says its name: `/healthz` for HAProxy's checks, `/whoami`, and
    /// `/stream`, which sends its name and then holds the response open until `release` opens.
    struct NamedServer {
        let name: String
        let server: LoopbackServer
        let release: FaultLatch

        static func start(_ name: String) async throws -> NamedServer {
            let release = FaultLatch()
            let router = Router()
            router.get("/healthz") { _, _ in "ok" }
            router.get("/whoami") { _, _ in name }
            router.get("/stream") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/plain"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: name + "\n"))
                        await release.wait()
                        try await writer.finish(nil)
                    })
            }
            let server = try await LoopbackServer.start(router: router, label: "cadence.named.\(name)")
            return NamedServer(name: name, server: server, release: release)
        }

        func shutdown() async {
            release.open()
            await server.shutdown()
        }
    }

    /// Starts servers `a` and `b` and HAProxy in front of them (`node0`, `node1`), runs `body`, then
    /// stops the proxy and shuts both servers down (shutting one down again is harmless).
    static func withProxy(
        _ body: (_ a: NamedServer, _ b: NamedServer, HAProxyTestServer) async throws -> Void
    ) async throws {
        let a = try await NamedServer.start("a")
        let b = try await NamedServer.start("b")
        let proxy = try await HAProxyTestServer.start(servers: [a.server.baseURL, b.server.baseURL])
        defer { proxy.stop() }
        try await body(a, b, proxy)
        await a.shutdown()
        await b.shutdown()
    }

    /// `GET /whoami` from the server or proxy at `baseURL`.
    static func whoami(_ baseURL: String) async throws -> HTTPClientResponse {
        try await HTTPClient.shared.execute(HTTPClientRequest(url: baseURL + "/whoami"), timeout: .seconds(10))
    }

    @Test("balances round-robin over its servers, request by request")
    func roundRobin() async throws {
        try await Self.withProxy { a, b, proxy in
            var names: [String] = []
            for _ in 0..<6 {
                let response = try await Self.whoami(proxy.baseURL)
                #expect(response.status == .ok)
                names.append(String(buffer: try await response.body.collect(upTo: 1024)))
            }
            #expect(Set(names) == ["a", "b"])
            #expect(zip(names, names.dropFirst()).allSatisfy { $0 != $1 }, "alternates: \(names)")
            let statistics = try await proxy.serverStatistics()
            #expect(statistics.keys.sorted() == ["node0", "node1"])
            #expect(statistics.values.allSatisfy { $0.isUp }, "\(statistics)")
            #expect(statistics.values.map(\.totalSessions) == [3, 3], "\(statistics)")
        }
    }

    @Test("dropSessions cuts a live stream of that server, which keeps running and serving")
    func dropSessionsCutsAStream() async throws {
        try await Self.withProxy { a, b, proxy in
            let (firstChunks, firstChunk) = AsyncStream<String>.makeStream()
            let reader = Task {
                defer { firstChunk.finish() }
                let response = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: proxy.baseURL + "/stream"), timeout: .seconds(10))
                var body = response.body.makeAsyncIterator()
                firstChunk.yield(String(buffer: try await body.next() ?? ByteBuffer()))
                do {
                    while try await body.next() != nil {}
                } catch {}  // an abrupt end is as good as a clean one: the stream was cut either way
            }
            var chunks = firstChunks.makeAsyncIterator()
            let first = try #require(await chunks.next())
            #expect(["a\n", "b\n"].contains(first))
            let serving = first == "a\n" ? "node0" : "node1"
            #expect(try await proxy.serverStatistics()[serving]?.sessions == 1)

            try await proxy.dropSessions(server: serving)
            // The server holds the stream open until it is released, so only the cut can end it.
            try await withDeadline(.seconds(10), "the stream to end after its session was dropped") {
                try await reader.value
            }
            // The server itself still answers, directly and through the proxy.
            let direct = try await Self.whoami((first == "a\n" ? a : b).server.baseURL)
            #expect(direct.status == .ok)
            #expect(try await proxy.serverStatistics()[serving]?.isUp == true)
        }
    }

    @Test("a server that stops is taken out of rotation by the health checks")
    func healthChecks() async throws {
        try await Self.withProxy { a, b, proxy in
            await b.shutdown()
            try await proxy.waitUntil(server: "node1", is: "DOWN", timeout: .seconds(10))
            for _ in 0..<4 {
                let response = try await Self.whoami(proxy.baseURL)
                #expect(String(buffer: try await response.body.collect(upTo: 1024)) == "a")
            }
        }
    }
}
