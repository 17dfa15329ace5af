import CadenceEngine
import CadenceTesting
import Foundation
import Testing

@testable import CadenceWeb

/// The fetcher against a real loopback server, which the tests allow by its `host:port` (as
/// `--fetch-allow 127.0.0.1:PORT` would): pages, charsets and the limits.
@Suite struct PageFetcherTests {
    static func fetcher(
        _ server: PageServer, clock: ManualClock? = nil, configure: (inout FetchPolicy) -> Void = { _ in }
    )
        -> PageFetcher
    {
        var policy = FetchPolicy(allowing: [FetchAllowance(host: "127.0.0.1", port: server.port)])
        configure(&policy)
        guard let clock else { return PageFetcher(policy: policy) }
        return PageFetcher(policy: policy, clock: clock)
    }

    static func error(_ fetcher: PageFetcher, _ url: String) async -> PageFetchError? {
        guard let parsed = URL(string: url) else { return PageFetchError(code: .invalidURL, url: url, message: "unparsed") }
        do {
            _ = try await fetcher.fetch(parsed)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsAPage() async throws {
        try await withPageServer { server in
            let page = try await Self.fetcher(server).fetch(URL(string: "\(server.baseURL)/page")!)
            #expect(page.mediaType == "text/html")
            #expect(page.text == ExtractedPage(title: "Soup & bread", text: "# Soup\n\nLeeks, then potatoes."))
            #expect(page.url == page.requestedURL)
            let xhtml = try await Self.fetcher(server).fetch(URL(string: "\(server.baseURL)/xhtml")!)
            #expect(xhtml.text.title == "Soup & bread")
        }
    }

    @Test func honoursTheCharset() async throws {
        try await withPageServer { server in
            let fetcher = Self.fetcher(server)
            for path in ["/latin1", "/meta-charset"] {
                let page = try await fetcher.fetch(URL(string: server.baseURL + path)!)
                #expect(page.text.text == "Crème brûlée – 5 €", "\(path)")
            }
        }
    }

    @Test func plainTextIsCleaned() async throws {
        try await withPageServer { server in
            let page = try await Self.fetcher(server).fetch(URL(string: "\(server.baseURL)/plain")!)
            #expect(page.mediaType == "text/plain")
            #expect(page.text.text == "plain [31mtext")
        }
    }

    @Test func refusesOtherMediaTypes() async throws {
        try await withPageServer { server in
            for path in ["/pdf", "/untyped"] {
                let error = await Self.error(Self.fetcher(server), server.baseURL + path)
                #expect(error?.code == .unsupportedContentType, "\(path): \(String(describing: error))")
            }
        }
    }

    @Test func capsTheSize() async throws {
        try await withPageServer { server in
            for path in ["/big-declared", "/big-streamed"] {
                let error = await Self.error(Self.fetcher(server), server.baseURL + path)
                #expect(error?.code == .tooLarge, "\(path): \(String(describing: error))")
            }
            let page = try await Self.fetcher(server).fetch(URL(string: "\(server.baseURL)/exactly-the-cap")!)
            #expect(page.byteCount == 2 << 20)
        }
    }

    @Test func followsRedirectsUpToTheLimit() async throws {
        try await withPageServer { server in
            let fetcher = Self.fetcher(server)
            let page = try await fetcher.fetch(URL(string: "\(server.baseURL)/chain/4")!)  // 5 redirects
            #expect(page.url.absoluteString == "\(server.baseURL)/page")
            #expect(page.text.title == "Soup & bread")
            let error = await Self.error(fetcher, "\(server.baseURL)/chain/5")  // 6 redirects
            #expect(error?.code == .tooManyRedirects)
        }
    }

    @Test func aStatusIsAnError() async throws {
        try await withPageServer { server in
            #expect(await Self.error(Self.fetcher(server), "\(server.baseURL)/missing")?.code == .httpStatus(404))
        }
    }

    @Test(arguments: ["ftp://127.0.0.1/", "file:///etc/passwd", "gopher://127.0.0.1:70/", "data:text/html,hi"])
    func refusesOtherSchemes(url: String) async throws {
        let error = await Self.error(PageFetcher(), url)
        #expect(error?.code == .unsupportedScheme || error?.code == .invalidURL, "\(String(describing: error))")
    }

    /// A fetch of the page that never finishes, once the server has the request and the fetch
    /// waits on the clock.
    static func stalledFetch(_ server: PageServer, clock: ManualClock) async -> Task<PageFetchError?, Never> {
        let fetcher = Self.fetcher(server, clock: clock)
        let fetch = Task { await Self.error(fetcher, "\(server.baseURL)/stall") }
        await clock.waitForSleep(until: .seconds(10))
        while server.requestCount == 0 { await Task.yield() }
        return fetch
    }

    /// A page that never finishes ends at the page timeout, on the injected clock.
    @Test func timesOut() async throws {
        try await withPageServer { server in
            let clock = ManualClock()
            let fetch = await Self.stalledFetch(server, clock: clock)
            clock.advance(by: .seconds(10))
            let error = await fetch.value
            #expect(error?.code == .timedOut, "\(String(describing: error))")
        }
    }

    @Test func aCancelledFetchSaysSo() async throws {
        try await withPageServer { server in
            let fetch = await Self.stalledFetch(server, clock: ManualClock())
            fetch.cancel()
            #expect(await fetch.value?.code == .cancelled)
        }
    }
}
