import AsyncHTTPClient
import CadenceEngine
public import Foundation
import NIOCore
import NIOHTTP1

/// Reads web pages for research, safely: ``fetch(_:)`` gives a page's readable text, or a typed
/// error that research skips.
///
/// The fetch guard: each URL (the first and every redirect) must be `http` or `https`; its host is
/// resolved once (an address in any spelling is read as one, see ``IPAddress``), every address is
/// checked against ``AddressGuard`` unless ``FetchPolicy/allowed`` names the host or address and
/// port, and the connection goes to the address that was checked, never to a second lookup of the
/// name: the request's client maps the host to that address (AsyncHTTPClient's `dnsOverride`), so
/// `Host`, TLS server name and certificate checks still use the name, while a DNS answer that
/// changes between check and connect (DNS rebinding) changes nothing. Redirects are followed here,
/// not by the client, so that each is checked again.
///
/// Limits (``FetchPolicy``): 5 redirects, 2 MB, 10 s per page on the injected clock (and the
/// client's own deadline), the media types research reads, 2 fetches per host at a time.
///
/// ```swift
/// let fetcher = PageFetcher(policy: FetchPolicy(allowing: [FetchAllowance("127.0.0.1:8888")!]))
/// do {
///     let page = try await fetcher.fetch(URL(string: "https://example.org/")!)
///     print(page.text.title)
/// } catch {
///     print("skipped: \(error)")  // a PageFetchError
/// }
/// ```
public final class PageFetcher: Sendable {
    public let policy: FetchPolicy
    let resolver: any HostResolver
    private let sleep: @Sendable (Duration) async throws -> Void
    private let slots: HostSlots
    private let extractor = HTMLTextExtractor()

    /// A fetcher on `clock`, which times each page.
    public init<C: Clock<Duration>>(
        policy: FetchPolicy = FetchPolicy(), clock: C, resolver: any HostResolver = SystemHostResolver()
    ) {
        self.policy = policy
        self.resolver = resolver
        self.sleep = { duration in try await clock.sleep(for: duration) }
        self.slots = HostSlots(limit: policy.connectionsPerHost)
    }

    /// A fetcher on the continuous clock.
    public convenience init(policy: FetchPolicy = FetchPolicy(), resolver: any HostResolver = SystemHostResolver()) {
        self.init(policy: policy, clock: ContinuousClock(), resolver: resolver)
    }

    /// The readable text of the page at `url`, following up to ``FetchPolicy/maxRedirects``
    /// redirects, each checked by the fetch guard again.
    public func fetch(_ url: URL) async throws(PageFetchError) -> FetchedPage {
        let timeout = policy.pageTimeout
        do {
            return try await withThrowingTaskGroup(of: FetchedPage?.self) { group in
                group.addTask { try await self.followingRedirects(from: url) }
                group.addTask {
                    try await self.sleep(timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let page = first else {
                    throw PageFetchError(code: .timedOut, url: url.absoluteString, message: "no whole page within \(timeout)")
                }
                return page
            }
        } catch let error as PageFetchError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled {
                throw PageFetchError(code: .cancelled, url: url.absoluteString, message: "the fetch was cancelled")
            }
            throw PageFetchError(code: .transport, url: url.absoluteString, message: "\(error)")
        }
    }

    /// One response: a page's body, or where a redirect points.
    private enum Response {
        case body(mediaType: String, charset: String?, bytes: [UInt8])
        case redirect(location: String)
    }

    private func followingRedirects(from url: URL) async throws -> FetchedPage {
        var current = url
        var redirects = 0
        while true {
            switch try await response(from: current) {
            case .redirect(let location):
                guard redirects < policy.maxRedirects else {
                    throw PageFetchError(
                        code: .tooManyRedirects, url: url.absoluteString,
                        message: "more than \(policy.maxRedirects) redirects (the last to \(location))")
                }
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw PageFetchError(code: .invalidURL, url: location, message: "a redirect from \(current) to a bad URL")
                }
                redirects += 1
                current = next
            case .body(let mediaType, let charset, let bytes):
                let text =
                    mediaType == "text/plain"
                    ? ExtractedPage(plainText: bytes, charset: charset) : extractor.extract(bytes, charset: charset)
                return FetchedPage(
                    requestedURL: url, url: current, mediaType: mediaType, byteCount: bytes.count, text: text)
            }
        }
    }

    /// Checks `url` with the fetch guard, then sends one request to a checked address: the first,
    /// or the next when a connection fails (a name with IPv6 and IPv4 addresses, one unreachable).
    private func response(from url: URL) async throws -> Response {
        let target = try await checkedTarget(url)
        try await slots.acquire(target.host)
        defer { slots.release(target.host) }
        var failure: PageFetchError?
        for address in target.addresses {
            do {
                return try await withClient(connectingTo: address, for: target) { client in
                    try await self.send(url, with: client)
                }
            } catch let error as ConnectionFailure {
                failure = error.error
            }
        }
        throw failure ?? PageFetchError(code: .transport, url: url.absoluteString, message: "no address to connect to")
    }

    /// A request that failed before any response: the next checked address may do better.
    private struct ConnectionFailure: Error {
        let error: PageFetchError
    }

    /// Runs `body` with a client whose every connection to `target`'s host goes to `address`, and
    /// shuts the client down after.
    private func withClient<T: Sendable>(
        connectingTo address: IPAddress, for target: CheckedTarget, _ body: (HTTPClient) async throws -> T
    ) async throws -> T {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(policy.pageTimeout), read: TimeAmount(policy.pageTimeout)))
        configuration.dnsOverride = [target.clientHost: address.description]
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let result = try await body(client)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func send(_ url: URL, with client: HTTPClient) async throws -> Response {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "Cadence (research page reader)")
        request.headers.add(name: "Accept", value: "text/html, application/xhtml+xml, text/plain;q=0.9")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .now() + TimeAmount(policy.pageTimeout))
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw ConnectionFailure(error: PageFetchError(code: .transport, url: url.absoluteString, message: "\(error)"))
        }
        let status = Int(response.status.code)
        if [301, 302, 303, 307, 308].contains(status) {
            guard let location = response.headers["Location"].first else {
                throw PageFetchError(
                    code: .httpStatus(status), url: url.absoluteString, message: "a redirect with no Location")
            }
            return .redirect(location: location)
        }
        guard (200..<300).contains(status) else {
            throw PageFetchError(code: .httpStatus(status), url: url.absoluteString, message: "HTTP \(status)")
        }
        let contentType = response.headers["Content-Type"].first ?? ""
        let mediaType =
            contentType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard policy.mediaTypes.contains(mediaType) else {
            throw PageFetchError(
                code: .unsupportedContentType, url: url.absoluteString,
                message: "\(mediaType.isEmpty ? "no Content-Type" : mediaType) is not a page research reads")
        }
        let tooLarge = PageFetchError(
            code: .tooLarge, url: url.absoluteString, message: "longer than \(policy.maxBytes) bytes")
        if let length = response.headers["Content-Length"].first.flatMap(Int.init), length > policy.maxBytes {
            throw tooLarge
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in response.body {
                guard bytes.count + chunk.readableBytes <= policy.maxBytes else { throw tooLarge }
                bytes += chunk.readableBytesView
            }
        } catch let error as PageFetchError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw PageFetchError(code: .transport, url: url.absoluteString, message: "the body broke off: \(error)")
        }
        return .body(mediaType: mediaType, charset: PageCharset.charsetParameter(of: contentType), bytes: bytes)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
