import AsyncHTTPClient
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

    @Test("balances round-robin over its servers, request by request")
    func roundRobin() async throws {
        let a = try await NamedServer.start("a")
        let b = try await NamedServer.start("b")
        let proxy = try await HAProxyTestServer.start(servers: [a.server.baseURL, b.server.baseURL])
        defer { proxy.stop() }
        var names: [String] = []
        for _ in 0..<6 {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: proxy.baseURL + "/whoami"), timeout: .seconds(10))
            #expect(response.status == .ok)
            names.append(String(buffer: try await response.body.collect(upTo: 1024)))
        }
        #expect(Set(names) == ["a", "b"])
        #expect(zip(names, names.dropFirst()).allSatisfy { $0 != $1 }, "alternates: \(names)")
        let statistics = try await proxy.serverStatistics()
        #expect(statistics.keys.sorted() == ["node0", "node1"])
        #expect(statistics.values.allSatisfy { $0.isUp }, "\(statistics)")
        #expect(statistics.values.map(\.totalSessions) == [3, 3], "\(statistics)")
        await a.shutdown()
        await b.shutdown()
    }

    @Test("dropSessions cuts a live stream of that server, which keeps running and serving")
    func dropSessionsCutsAStream() async throws {
        let a = try await NamedServer.start("a")
        let b = try await NamedServer.start("b")
        let proxy = try await HAProxyTestServer.start(servers: [a.server.baseURL, b.server.baseURL])
        defer { proxy.stop() }
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
        let direct = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: (first == "a\n" ? a : b).server.baseURL + "/whoami"), timeout: .seconds(10))
        #expect(direct.status == .ok)
        #expect(try await proxy.serverStatistics()[serving]?.isUp == true)
        await a.shutdown()
        await b.shutdown()
    }

    @Test("a server that stops is taken out of rotation by the health checks")
    func healthChecks() async throws {
        let a = try await NamedServer.start("a")
        let b = try await NamedServer.start("b")
        let proxy = try await HAProxyTestServer.start(servers: [a.server.baseURL, b.server.baseURL])
        defer { proxy.stop() }
        await b.shutdown()
        try await proxy.waitUntil(server: "node1", is: "DOWN", timeout: .seconds(10))
        for _ in 0..<4 {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: proxy.baseURL + "/whoami"), timeout: .seconds(10))
            #expect(String(buffer: try await response.body.collect(upTo: 1024)) == "a")
        }
        await a.shutdown()
    }
}
