import CadenceCore
import CadenceSearch
import CadenceTesting
import Testing

/// The web search sources against loopback servers serving each API's documented replies.
@Suite("Web search sources")
struct WebSourceTests {
    @Test("SearXNG: results in order, unusable URLs dropped, the query sent as q with format=json")
    func searxng() async throws {
        let api = try await SearchAPIServer.start(["/search": [.json(SearchFixtures.searxng)]])
        defer { Task { await api.shutdown() } }
        let source = SearXNGSource(baseURL: api.baseURL + "/", http: SearchHTTP())
        let passages = try await source.search("server-sent events & more", limit: 5)
        #expect(passages.map(\.url) == [
            "https://html.spec.whatwg.org/multipage/server-sent-events.html",
            "https://developer.mozilla.org/en-US/docs/Web/API/Server-sent_events",
        ])
        #expect(passages[0].title == "HTML Standard: Server-sent events")
        #expect(passages[0].text == "This section describes the EventSource interface.")
        #expect(passages[0].details.kind == .web)
        #expect(passages[1].details.published == "2024-02-01T00:00:00")
        #expect(passages[0].score > passages[1].score)
        let request = try #require(api.requests.first)
        #expect(request.path == "/search")
        #expect(request.query.contains("q=server-sent%20events%20%26%20more"))
        #expect(request.query.contains("format=json"))
    }

    @Test("SearXNG: an empty result list is no passages, not a failure")
    func searxngEmpty() async throws {
        let api = try await SearchAPIServer.start(["/search": [.json(SearchFixtures.searxngEmpty)]])
        defer { Task { await api.shutdown() } }
        let passages = try await SearXNGSource(baseURL: api.baseURL, http: SearchHTTP()).search("zzzz", limit: 5)
        #expect(passages.isEmpty)
    }

    @Test("A body that is not the documented JSON is an unreadable-body failure that quotes it")
    func garbage() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [SearchAPIServer.Reply(body: "<html><body>Too many requests, slow down</body></html>")]
        ])
        defer { Task { await api.shutdown() } }
        let error = await #expect(throws: SearchSourceError.self) {
            try await SearXNGSource(baseURL: api.baseURL, http: SearchHTTP()).search("sse", limit: 5)
        }
        #expect(error?.code == .unreadableBody)
        #expect(error?.message.contains("not JSON") == true)
        #expect(error?.message.contains("Too many requests") == true)

        let object = try await SearchAPIServer.start(["/search": [.json(#"{"message": "no results member"}"#)]])
        defer { Task { await object.shutdown() } }
        let missing = await #expect(throws: SearchSourceError.self) {
            try await SearXNGSource(baseURL: object.baseURL, http: SearchHTTP()).search("sse", limit: 5)
        }
        #expect(missing?.code == .unreadableBody)
    }

    @Test("A 5xx is an HTTP-status failure carrying the service's words")
    func serverError() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [SearchAPIServer.Reply(status: .badGateway, body: "upstream engines unavailable")]
        ])
        defer { Task { await api.shutdown() } }
        let error = await #expect(throws: SearchSourceError.self) {
            try await SearXNGSource(baseURL: api.baseURL, http: SearchHTTP()).search("sse", limit: 5)
        }
        #expect(error?.code == .httpStatus)
        #expect(error?.message == "HTTP 502 Bad Gateway: upstream engines unavailable")
        #expect(api.requests.count == 1)  // a 5xx is not retried: the next round asks again
    }

    @Test("Brave: the key in X-Subscription-Token, web results with the site as venue; no web member is empty")
    func brave() async throws {
        let api = try await SearchAPIServer.start([
            "/res/v1/web/search": [.json(SearchFixtures.brave), .json(SearchFixtures.braveEmpty)]
        ])
        defer { Task { await api.shutdown() } }
        let source = BraveSource(apiKey: "BSA-test-key", baseURL: api.baseURL + "/res/v1", http: SearchHTTP())
        let passages = try await source.search("server-sent events", limit: 3)
        #expect(passages.count == 1)
        #expect(passages.first?.url.hasSuffix("/Using_server-sent_events") == true)
        #expect(passages.first?.details.venue == "MDN Web Docs")
        #expect(passages.first?.details.published == "2025-01-10T08:00:00")
        #expect(api.requests.first?.headers["x-subscription-token"] == "BSA-test-key")
        #expect(api.requests.first?.query.contains("count=3") == true)
        #expect(try await source.search("qqqqzzzz", limit: 3).isEmpty)
    }

    @Test("Tavily: a JSON POST with a bearer key; an error body's words reach the failure")
    func tavily() async throws {
        let api = try await SearchAPIServer.start([
            "/search": [
                .json(SearchFixtures.tavily),
                SearchAPIServer.Reply(status: .unauthorized, body: SearchFixtures.tavilyError),
            ]
        ])
        defer { Task { await api.shutdown() } }
        let source = TavilySource(apiKey: "tvly-test", baseURL: api.baseURL, http: SearchHTTP())
        let passages = try await source.search("server-sent events", limit: 4)
        #expect(passages.map(\.title) == ["Server-Sent Events explained", "Resuming streams with Last-Event-ID"])
        #expect(passages[1].details.published == "2024-06-03")
        let request = try #require(api.requests.first)
        #expect(request.method == "POST")
        #expect(request.headers["authorization"] == "Bearer tvly-test")
        let body = try JSONValue(parsing: request.body)
        #expect(body["query"]?.stringValue == "server-sent events")
        #expect(body["max_results"]?.intValue == 4)

        let error = await #expect(throws: SearchSourceError.self) { try await source.search("again", limit: 4) }
        #expect(error?.code == .httpStatus)
        #expect(error?.message.contains("401") == true && error?.message.contains("invalid API key") == true)
    }

    @Test("A 429 waits out its Retry-After on the clock and asks once more; a second 429 fails")
    func rateLimited() async throws {
        let limited = SearchAPIServer.Reply(
            status: .tooManyRequests, headers: [("Retry-After", "2")], body: SearchFixtures.ncbiRateLimit)
        let api = try await SearchAPIServer.start(["/search": [limited, .json(SearchFixtures.searxng), limited]])
        defer { Task { await api.shutdown() } }
        let clock = ManualClock()
        let source = SearXNGSource(baseURL: api.baseURL, http: SearchHTTP(clock: clock))

        let first = Task { try await source.search("sse", limit: 5) }
        await clock.waitForSleep(until: .seconds(2))
        #expect(api.requests.count == 1)
        clock.advance(by: .seconds(2))
        #expect(try await first.value.count == 2)
        #expect(api.requests.count == 2)

        let second = Task { try await source.search("sse", limit: 5) }
        await clock.waitForSleep(until: .seconds(4))
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: SearchSourceError.self) { try await second.value }
        #expect(error?.code == .rateLimited)
        #expect(api.requests.count == 4)
    }
}
