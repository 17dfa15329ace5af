import HTTPTypes

/// What the server refuses to web browsers, and the CORS headers it gives the web pages it allows.
///
/// A browser lets every page it shows send requests to any address, the user's own machine
/// included, so a page from anywhere could use a server on loopback that needs no token. Three
/// rules close that (docs/protocol.md, "Browsers"):
///
/// - **`Host`** (421): on a loopback bind, a request must name the bound address, `localhost`, or a
///   ``ServerConfiguration/publicHosts`` name. A page whose own name was rebound to 127.0.0.1 (DNS
///   rebinding) sends its own name. On another bind only the public hosts are checked, when any are
///   given (with the bound address, unless it is a wildcard such as `0.0.0.0`).
/// - **`Origin`** (403): a request that carries one must come from the server's own origin
///   (`http://` or `https://` and the `Host` it sent) or from one of
///   ``ServerConfiguration/corsOrigins``. Requests without one (curl, apps, the `cadence` client)
///   are not from a browser page and are served, as is a `ws://` or `wss://` one, which no page has
///   (WebSocket client libraries send it). WebSocket upgrades are checked alike: browsers send
///   `Origin` with them and apply no CORS rule of their own.
/// - **`Content-Type`** (415): a `POST` body must be `application/json`. A browser sends a form or
///   `text/plain` body to any address without asking first (no preflight); JSON it sends
///   cross-origin only after a preflight the server answers.
///
/// It only decides; ``RequestGuardHandler`` asks it about every request head.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.corsOrigins = ["https://app.example.com"]
/// let policy = try BrowserPolicy(configuration: configuration)
/// policy.verdict(method: "GET", host: "127.0.0.1:8080", origin: nil, requestedMethod: nil)
///     // .serve(corsOrigin: nil)
/// policy.verdict(method: "GET", host: "evil.example", origin: nil, requestedMethod: nil)
///     // .refuse(421 misdirected_request)
/// policy.verdict(method: "POST", host: "127.0.0.1", origin: "https://evil.example", requestedMethod: nil)
///     // .refuse(403 origin_not_allowed)
/// policy.verdict(method: "OPTIONS", host: "127.0.0.1", origin: "https://app.example.com", requestedMethod: "POST")
///     // .answerPreflight(headers)
/// ```
package struct BrowserPolicy: Sendable {
    /// What to do with a request head.
    enum Verdict: Sendable {
        /// Serve it; with a `corsOrigin`, its response carries ``responseHeaders(origin:)``.
        case serve(corsOrigin: String?)
        /// A preflight from an allowed origin: answer `204` with these headers.
        case answerPreflight(HTTPFields)
        /// Refuse it with this error.
        case refuse(APIError)
    }

    /// The allowed origins, lower-case.
    let allowedOrigins: Set<String>
    /// The names a `Host` may give (lower-case, without port or brackets), or `nil` for any.
    let allowedHosts: Set<String>?

    /// How long a browser may keep a preflight's answer, in seconds.
    static let preflightMaxAge = 600
    static let allowedMethods = "GET, POST, DELETE"
    static let allowedHeaders = "Authorization, Content-Type, Last-Event-ID"
    /// The response headers besides the CORS-safelisted ones that a page's script needs to read.
    static let exposedHeaders = "Cadence-Answer-ID, Retry-After, WWW-Authenticate"

    /// - Throws: ``ServerStartError`` when an entry of ``ServerConfiguration/corsOrigins`` is not an
    ///   origin (``normalizedOrigin(_:)``).
    init(configuration: ServerConfiguration) throws(ServerStartError) {
        var origins: Set<String> = []
        for origin in configuration.corsOrigins { origins.insert(try Self.normalizedOrigin(origin)) }
        allowedOrigins = origins
        allowedHosts = Self.allowedHosts(bound: configuration.host, publicHosts: configuration.publicHosts)
    }

    /// The decision for a request head, from its method and its `Host`, `Origin` and
    /// `Access-Control-Request-Method` headers.
    func verdict(method: String, host: String?, origin: String?, requestedMethod: String?) -> Verdict {
        if let allowedHosts, let host, !host.isEmpty, !allowedHosts.contains(Self.hostName(host)) {
            return .refuse(
                APIError(
                    status: .misdirectedRequest, code: "misdirected_request",
                    message: "this server does not answer to the name \"\(Self.excerpt(host))\": a page under another "
                        + "name that reaches it (DNS rebinding) is refused; it answers to "
                        + "\(allowedHosts.sorted().joined(separator: ", ")) (add a name with --public-host NAME)"))
        }
        guard let origin = origin.map({ String($0.trimmingSpaces) }), !Self.isWebSocketClientOrigin(origin) else {
            return .serve(corsOrigin: nil)
        }
        if allowedOrigins.contains(origin.lowercased()) {
            if method == "OPTIONS", requestedMethod != nil {
                return .answerPreflight(Self.preflightHeaders(origin: origin))
            }
            return .serve(corsOrigin: origin)
        }
        if let host, Self.isSameOrigin(origin, host: host) { return .serve(corsOrigin: nil) }
        return .refuse(
            APIError(
                status: .forbidden, code: "origin_not_allowed",
                message: "requests from the web page at \"\(Self.excerpt(origin))\" are refused; "
                    + "start the server with --cors-origin \(Self.excerpt(origin)) to allow that origin"))
    }

    /// Why a request's body is refused for its type (a `POST` that is not `application/json`), or `nil`.
    func mediaTypeRefusal(method: String, contentType: String?) -> APIError? {
        guard method == "POST" else { return nil }
        let mediaType = contentType.map { $0.prefix { $0 != ";" }.trimmingSpaces.lowercased() }
        if mediaType == "application/json" { return nil }
        let given = contentType.map { "Content-Type \"\(Self.excerpt($0))\"" } ?? "no Content-Type"
        return APIError(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            message: "a POST body must be JSON sent with Content-Type: application/json; this one has \(given)")
    }

    /// The headers of a `204` answer to a preflight from `origin`.
    static func preflightHeaders(origin: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.accessControlAllowOrigin] = origin
        fields[.accessControlAllowMethods] = allowedMethods
        fields[.accessControlAllowHeaders] = allowedHeaders
        fields[.accessControlMaxAge] = String(preflightMaxAge)
        fields[.vary] = "Origin"
        return fields
    }

    /// The headers added to every response to `origin`, an allowed one.
    static func responseHeaders(origin: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.accessControlAllowOrigin] = origin
        fields[.accessControlExposeHeaders] = exposedHeaders
        fields[.vary] = "Origin"
        return fields
    }

    /// `origin` as a browser sends it, lower-case: `scheme://host` with an optional `:port`, and
    /// nothing after (a final `/` is dropped). `*` and `null` are refused: either would let any
    /// page in (`null` is the origin of every sandboxed frame and local file).
    package static func normalizedOrigin(_ origin: String) throws(ServerStartError) -> String {
        var text = origin.trimmingSpaces.lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        if text == "*" || text == "null" {
            throw ServerStartError(
                message:
                    "the CORS origin \(origin) would let any web page in; name each origin, as https://app.example.com")
        }
        let separator = text.firstRange(of: "://")
        let scheme = separator.map { text[..<$0.lowerBound] } ?? ""
        let authority = separator.map { text[$0.upperBound...] } ?? ""
        guard scheme.first?.isLetter == true, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            !authority.isEmpty, !authority.contains(where: { "/?#@ \t".contains($0) })
        else {
            throw ServerStartError(
                message: "the CORS origin \"\(origin)\" is not an origin: give a scheme and a host, "
                    + "as https://app.example.com or http://localhost:5173, without a path")
        }
        return text
    }

    /// Whether `host` (a bind address or a name) reaches only this machine: `localhost`, 127.0.0.0/8
    /// or `::1`. Any other name counts as reachable from elsewhere.
    package static func isLoopback(_ host: String) -> Bool {
        let name = hostName(host)
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4,
            octets.allSatisfy({ $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } && UInt8($0) != nil })
        else { return false }
        return octets[0] == "127"
    }

    /// The names a `Host` may give when bound to `bound`, or `nil` when any will do.
    static func allowedHosts(bound: String, publicHosts: [String]) -> Set<String>? {
        let boundName = hostName(bound)
        let named = Set(publicHosts.map(hostName))
        if isLoopback(boundName) {
            // `localhost` stands for both loopback addresses: a client may connect to either.
            let loopbackNames: Set<String> = boundName == "localhost" ? ["127.0.0.1", "::1"] : []
            return named.union([boundName, "localhost"]).union(loopbackNames)
        }
        guard !named.isEmpty else { return nil }
        return ["0.0.0.0", "::", ""].contains(boundName) ? named : named.union([boundName])
    }

    /// The host of a `Host` value or a bind address, lower-case, without its port and without the
    /// brackets of an IPv6 literal: `[::1]:8080` is `::1`, `Example.com:80` is `example.com`.
    static func hostName(_ value: String) -> String {
        let text = value.trimmingSpaces.lowercased()
        if text.hasPrefix("[") {
            return String(text.dropFirst().prefix { $0 != "]" })
        }
        if text.filter({ $0 == ":" }).count > 1 { return text }  // a bare IPv6 address
        return String(text.prefix { $0 != ":" })
    }

    /// Whether `origin` is the server's own as a browser saw it: `http://` or `https://` (TLS may
    /// end at a load balancer) followed by exactly the `Host` the request sent.
    static func isSameOrigin(_ origin: String, host: String) -> Bool {
        let origin = origin.lowercased()
        let host = host.trimmingSpaces.lowercased()
        return !host.isEmpty && (origin == "http://" + host || origin == "https://" + host)
    }

    /// Whether `origin` has the `ws` or `wss` scheme: no page has such an origin, so it comes from a
    /// WebSocket client that is not a browser (swift-websocket's, which `WebSocketTransport` uses,
    /// always sends `Origin: ws://HOST`), and it is treated as no `Origin` at all.
    static func isWebSocketClientOrigin(_ origin: String) -> Bool {
        let origin = origin.lowercased()
        return origin.hasPrefix("ws://") || origin.hasPrefix("wss://")
    }

    /// At most 100 characters of a header value, for an error message.
    private static func excerpt(_ value: String) -> String { value.clipped(to: 100) }
}
