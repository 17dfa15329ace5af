import CadenceCore
import CadenceResearch
import CadenceSearch
import CadenceTesting
import CadenceWeb
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing

/// The page reader against a loopback web server that counts its requests: pages fetched through the
/// fetch guard, ranked for the queries, kept in the response cache, and skipped when refused.
@Suite("Page reader")
struct PageReaderTests {
    static let recipe = """
        <html><head><title>Leek soup</title><script>track()</script></head><body>
        <nav>Home · Recipes</nav>
        <h1>Leek soup</h1><p>A winter classic from the north.</p>
        <h2>Method</h2><p>Soften the leeks in butter for ten minutes, then add the potatoes and the stock.</p>
        <h2>Serving</h2><p>Serve hot with bread.</p>
        <footer>© Recipes</footer></body></html>
        """

    /// A page server: `/recipe` answers the page, `/slow` sends its headers and then nothing for a
    /// minute; every request is counted.
    static func pageServer(hits: NIOLockedValueBox<Int>) async throws -> LoopbackServer {
        let router = Router()
        router.get("slow") { _, _ in
            hits.withLockedValue { $0 += 1 }
            return Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: ResponseBody { writer in
                    try await Task.sleep(for: .seconds(60))
                    try await writer.finish(nil)
                })
        }
        router.get("recipe") { _, _ in
            hits.withLockedValue { $0 += 1 }
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: recipe)))
        }
        return try await LoopbackServer.start(router: router, label: "pages")
    }

    static func reader(allowing port: Int?, cache: ResponseCache? = nil) -> PageReader {
        let allowed = port.map { [FetchAllowance(host: "127.0.0.1", port: $0)] } ?? []
        return PageReader(fetcher: PageFetcher(policy: FetchPolicy(allowing: allowed)), cache: cache, clock: ContinuousClock())
    }

    @Test("A page allowed by --fetch-allow is read, its passages ranked for the queries, without its script or nav")
    func readAndRanked() async throws {
        let hits = NIOLockedValueBox(0)
        let server = try await Self.pageServer(hits: hits)
        defer { Task { await server.shutdown() } }
        let url = server.baseURL + "/recipe"
        let readings = await Self.reader(allowing: server.port).read([url], for: ["leeks butter"], within: .seconds(30))
        let reading = try #require(readings.first)
        #expect(reading.failure == nil)
        #expect(reading.passages.first?.heading == "Method")
        #expect(reading.passages.first?.text.contains("Soften the leeks in butter") == true)
        #expect(reading.passages.first?.title == "Leek soup")
        #expect(reading.passages.allSatisfy { !$0.text.contains("track()") && !$0.text.contains("Recipes") })
        #expect(hits.withLockedValue { $0 } == 1)
    }

    @Test("Without the allowance the loopback page is refused before any request, and reported, not thrown")
    func refused() async throws {
        let hits = NIOLockedValueBox(0)
        let server = try await Self.pageServer(hits: hits)
        defer { Task { await server.shutdown() } }
        let url = server.baseURL + "/recipe"
        let readings = await Self.reader(allowing: nil).read([url, "ftp://example.org/x"], for: ["leeks"], within: .seconds(30))
        #expect(readings.map(\.url) == [url, "ftp://example.org/x"])
        #expect(readings[0].failure?.contains("loopback") == true)
        #expect(readings[0].failure?.contains("--fetch-allow 127.0.0.1:\(server.port)") == true)
        #expect(readings[1].failure?.contains("only http and https") == true)
        #expect(readings.allSatisfy { $0.passages.isEmpty })
        #expect(hits.withLockedValue { $0 } == 0)
    }

    @Test("A read page is kept in the cache file: a follow-up (even from a new reader) does not fetch it again")
    func cached() async throws {
        let hits = NIOLockedValueBox(0)
        let server = try await Self.pageServer(hits: hits)
        defer { Task { await server.shutdown() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("cache.sqlite").path
        let url = server.baseURL + "/recipe"
        let first = await Self.reader(allowing: server.port, cache: try ResponseCache(path: path, timeToLive: .seconds(3600)))
            .read([url], for: ["leeks"], within: .seconds(30))
        let again = await Self.reader(allowing: server.port, cache: try ResponseCache(path: path, timeToLive: .seconds(3600)))
            .read([url], for: ["serve bread"], within: .seconds(30))
        #expect(hits.withLockedValue { $0 } == 1)
        #expect(first.first?.passages.isEmpty == false)
        // The cached page is ranked for the new question.
        #expect(again.first?.passages.first?.heading == "Serving")
        // With the cache off, it is fetched.
        _ = await Self.reader(allowing: server.port).read([url], for: ["leeks"], within: .seconds(30))
        #expect(hits.withLockedValue { $0 } == 2)
    }

    @Test("A page still loading when the search budget runs out is reported as not read, on the injected clock")
    func outOfTime() async throws {
        let hits = NIOLockedValueBox(0)
        let server = try await Self.pageServer(hits: hits)
        defer { Task { await server.shutdown() } }
        let clock = ManualClock()
        let policy = FetchPolicy(allowing: [FetchAllowance(host: "127.0.0.1", port: server.port)])
        // The fetcher's own per-page timeout runs on the real clock (10 s): the budget on the test clock cuts first.
        let reader = PageReader(fetcher: PageFetcher(policy: policy), clock: clock)
        let reading = Task { await reader.read([server.baseURL + "/slow"], for: ["leeks"], within: .seconds(5)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        let readings = await reading.value
        #expect(readings == [PageReading(url: server.baseURL + "/slow", failure: "the search budget ran out before the page was read")])
    }
}
