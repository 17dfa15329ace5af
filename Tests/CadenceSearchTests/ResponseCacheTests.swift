import CadenceCore
import CadenceSearch
import CadenceTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

/// The response cache in a real SQLite file, in front of a loopback search API that counts the
/// requests it gets: a follow-up is answered from the file until the entry expires.
@Suite("Response cache")
struct ResponseCacheTests {
    /// A cache file in a fresh temporary folder, with its clock moved by hand.
    final class CacheFile: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-cache-\(UUID().uuidString)")
        let clock = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))
        var path: String { folder.appendingPathComponent("data/cache.sqlite").path }

        func open(timeToLive: Duration = .seconds(3600)) throws -> ResponseCache {
            try ResponseCache(path: path, timeToLive: timeToLive, now: { [clock] in clock.withLockedValue { $0 } })
        }

        func advance(seconds: Double) {
            clock.withLockedValue { $0 += seconds }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("A second search for the same query is served from the file; another cache on the same file serves it too")
    func followUpIsNotFetchedAgain() async throws {
        let api = try await SearchAPIServer.start(["/search": [.json(SearchFixtures.searxng)]])
        defer { Task { await api.shutdown() } }
        let file = CacheFile()
        let source = SearXNGSource(baseURL: api.baseURL, http: SearchHTTP(cache: try file.open()))
        let first = try await source.search("server-sent events", limit: 5)
        let second = try await source.search("server-sent events", limit: 5)
        #expect(api.requests.count == 1)
        #expect(first == second && first.count == 2)
        // A later process: a new cache on the same file.
        let later = SearXNGSource(baseURL: api.baseURL, http: SearchHTTP(cache: try file.open()))
        #expect(try await later.search("server-sent events", limit: 5) == first)
        #expect(api.requests.count == 1)
        _ = try await later.search("another query", limit: 5)
        #expect(api.requests.count == 2)
    }

    @Test("An entry older than the time to live is not served: the search goes out again")
    func expiredIsNotServed() async throws {
        let api = try await SearchAPIServer.start(["/search": [.json(SearchFixtures.searxng)]])
        defer { Task { await api.shutdown() } }
        let file = CacheFile()
        let source = SearXNGSource(baseURL: api.baseURL, http: SearchHTTP(cache: try file.open(timeToLive: .seconds(60))))
        _ = try await source.search("sse", limit: 5)
        file.advance(seconds: 59)
        _ = try await source.search("sse", limit: 5)
        #expect(api.requests.count == 1)
        file.advance(seconds: 1)
        _ = try await source.search("sse", limit: 5)
        #expect(api.requests.count == 2)
    }

    @Test(
        "A failed or garbled answer is not kept: the next search asks again",
        arguments: [
            SearchAPIServer.Reply(status: .serviceUnavailable, body: "down"),
            .json("<html><body>Too many requests, try later</body></html>"),
            SearchAPIServer.Reply(headers: [("Content-Type", "text/html")], body: "<html><body>Busy</body></html>"),
        ])
    func failuresAreNotKept(failure: SearchAPIServer.Reply) async throws {
        let api = try await SearchAPIServer.start(["/search": [failure, .json(SearchFixtures.searxng)]])
        defer { Task { await api.shutdown() } }
        let file = CacheFile()
        let source = SearXNGSource(baseURL: api.baseURL, http: SearchHTTP(cache: try file.open()))
        await #expect(throws: SearchSourceError.self) { try await source.search("sse", limit: 5) }
        #expect(try await source.search("sse", limit: 5).count == 2)
        #expect(api.requests.count == 2)
    }

    @Test("Storing deletes expired entries, and no API key is written to the file")
    func expiredDeletedAndNoKeys() async throws {
        let file = CacheFile()
        let cache = try file.open(timeToLive: .seconds(60))
        let key = ResponseCache.key(
            method: "GET", url: "https://eutils.example/esearch.fcgi?db=pubmed&term=x&api_key=SECRET-KEY")
        #expect(!key.contains("SECRET-KEY") && key.contains("term=x"))
        await cache.store("old", for: "a")
        file.advance(seconds: 61)
        await cache.store("{\"idlist\": []}", for: key)
        #expect(await cache.count() == 1)
        #expect(await cache.value(for: "a") == nil)
        #expect(await cache.value(for: key) == "{\"idlist\": []}")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file.path))
        #expect(bytes.range(of: Data("SECRET-KEY".utf8)) == nil)
        #expect(bytes.range(of: Data("idlist".utf8)) != nil)
    }
}
