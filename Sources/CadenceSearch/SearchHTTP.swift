public import AsyncHTTPClient
import CadenceClient
import CadenceCore
import Foundation
import NIOCore
import NIOHTTP1

/// The HTTP side every web source shares: one request, its body read up to a limit, every failure
/// turned into a ``SearchSourceError``, and a 429 answered by waiting out its `Retry-After` (on the
/// injected clock, at most `maxRetryWait`, 5 s by default) and asking once more. With a
/// ``ResponseCache``, a successful answer is kept and served again until it expires.
///
/// ```swift
/// let http = SearchHTTP(clock: ContinuousClock())
/// let body = try await http.get("https://searx.example/search?q=sse&format=json")
/// ```
public struct SearchHTTP: Sendable {
    let client: HTTPClient
    /// The longest `Retry-After` honoured; a longer one waits this long.
    let maxRetryWait: Duration
    /// The largest body read.
    let maxBodyBytes: Int
    /// Where successful answers are kept, if anywhere.
    let cache: ResponseCache?
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A requester on `client` (by default the Cadence client, which fails refused connections at
    /// once) whose `Retry-After` waits run on `clock`, and whose answers `cache` keeps.
    public init(
        client: HTTPClient? = nil, clock: some Clock<Duration> = ContinuousClock(),
        maxRetryWait: Duration = .seconds(5), maxBodyBytes: Int = 8 << 20, cache: ResponseCache? = nil
    ) {
        self.client = client ?? .cadence
        self.cache = cache
        self.maxRetryWait = maxRetryWait
        self.maxBodyBytes = maxBodyBytes
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// GETs `url` with `headers`; returns the body text.
    func get(_ url: String, headers: [(String, String)] = [], pacer: RequestPacer? = nil) async throws -> String {
        try await send(url, method: .GET, headers: headers, body: nil, pacer: pacer)
    }

    /// POSTs `body` (JSON) to `url`; returns the body text.
    func post(_ url: String, json body: String, headers: [(String, String)] = []) async throws -> String {
        try await send(url, method: .POST, headers: headers + [("Content-Type", "application/json")], body: body, pacer: nil)
    }

    private func send(
        _ url: String, method: HTTPMethod, headers: [(String, String)], body: String?, pacer: RequestPacer?
    ) async throws -> String {
        let key = ResponseCache.key(method: method.rawValue, url: url, body: body)
        if let cached = await cache?.value(for: key) { return cached }
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(contentsOf: headers + [("Accept", "application/json, application/xml, */*")])
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        for attempt in 1...2 {
            try await pacer?.admit()
            let (status, reason, responseHeaders, text) = try await exchange(request)
            if status == 429 && attempt == 1 {
                try await sleep(min(RetryAfter.parse(responseHeaders) ?? .seconds(1), maxRetryWait))
                continue
            }
            if status == 429 {
                throw SearchSourceError(.rateLimited, "rate limited: HTTP 429 again after waiting as asked")
            }
            guard (200..<300).contains(status) else {
                let detail = text.oneLine(limit: 200)
                throw SearchSourceError(
                    .httpStatus, "HTTP \(status) \(reason)" + (detail.isEmpty ? "" : ": \(detail)"))
            }
            if cache != nil, Self.isReadable(text, contentType: responseHeaders["Content-Type"].first ?? "") {
                await cache?.store(text, for: key)
            }
            return text
        }
        throw SearchSourceError(.rateLimited, "rate limited")
    }

    private func exchange(_ request: HTTPClientRequest) async throws -> (Int, String, HTTPHeaders, String) {
        do {
            // The fanout's clock bounds the time; this deadline only frees a connection it forgot.
            let response = try await client.execute(request, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: maxBodyBytes)
            return (Int(response.status.code), response.status.reasonPhrase, response.headers, String(buffer: body))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as NIOTooManyBytesError {
            throw SearchSourceError(.unreadableBody, "the reply is larger than \(maxBodyBytes) bytes: \(error)")
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw SearchSourceError(.unreachable, "could not reach \(request.url): \(error)")
        }
    }

    /// Whether `text` is JSON, or XML sent as XML: the formats the sources read. Only such a reply
    /// is cached, so that a garbled answer (an HTML error page sent with 200) is asked for again
    /// rather than served for the cache's lifetime.
    static func isReadable(_ text: String, contentType: String) -> Bool {
        if (try? JSONValue(parsing: text)) != nil { return true }
        return contentType.lowercased().contains("xml") && (try? XMLNode.parse(text)) != nil
    }

    /// `text` with `%`-escapes for a URL query value.
    static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Parses `text` as JSON, or says the body is unreadable.
    static func json(_ text: String, from service: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw SearchSourceError(
                .unreadableBody, "\(service) sent a body that is not JSON: \(text.oneLine(limit: 80))")
        }
    }
}
