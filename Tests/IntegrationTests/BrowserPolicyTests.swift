import HTTPTypes
import Testing

@testable import CadenceServer

/// The pure rules of what a browser page may do: which `Host`, `Origin` and `Content-Type` are
/// refused, which preflights are answered, and which origins get CORS headers.
@Suite("Browser policy")
struct BrowserPolicyTests {
    static func policy(
        host: String = "127.0.0.1", origins: [String] = [], publicHosts: [String] = []
    ) throws
        -> BrowserPolicy
    {
        var configuration = ServerConfiguration(host: host)
        configuration.corsOrigins = origins
        configuration.publicHosts = publicHosts
        return try BrowserPolicy(configuration: configuration)
    }

    /// The status of a verdict: 200 for served, 204 for an answered preflight.
    static func status(_ verdict: BrowserPolicy.Verdict) -> Int {
        switch verdict {
        case .serve: 200
        case .answerPreflight: 204
        case .refuse(let error): Int(error.status.code)
        }
    }

    @Test(
        "on a loopback bind, Host must be the bound address, localhost or a public host; with or without a port",
        arguments: [
            ("127.0.0.1", "127.0.0.1:8080", 200), ("127.0.0.1", "127.0.0.1", 200), ("127.0.0.1", "localhost:8080", 200),
            ("127.0.0.1", "LOCALHOST", 200), ("127.0.0.1", "cadence.test:8080", 200), ("127.0.0.1", nil, 200),
            ("127.0.0.1", "evil.example", 421), ("127.0.0.1", "evil.example:8080", 421),
            ("127.0.0.1", "127.0.0.2:8080", 421), ("127.0.0.1", "localhost.evil.example", 421),
            ("127.0.0.1", "[::1]:8080", 421), ("::1", "[::1]:8080", 200), ("[::1]", "[::1]", 200),
            ("::1", "127.0.0.1:8080", 421), ("localhost", "127.0.0.1:8080", 200), ("localhost", "[::1]:80", 200),
            ("127.0.0.5", "127.0.0.5:1", 200),
        ] as [(String, String?, Int)])
    func loopbackHost(bound: String, host: String?, status: Int) throws {
        let policy = try Self.policy(host: bound, publicHosts: ["cadence.test"])
        let verdict = policy.verdict(method: "GET", host: host, origin: nil, requestedMethod: nil)
        #expect(Self.status(verdict) == status)
        if case .refuse(let error) = verdict {
            #expect(error.code == "misdirected_request")
            #expect(error.message.contains("--public-host"))
        }
    }

    @Test(
        "on another bind, Host is checked only against the public hosts (and a specific bound address)",
        arguments: [
            ("0.0.0.0", [], "evil.example", 200), ("10.0.0.5", [], "anything:8080", 200),
            ("0.0.0.0", ["api.example.com"], "api.example.com", 200),
            ("0.0.0.0", ["api.example.com"], "API.example.com:443", 200),
            ("0.0.0.0", ["api.example.com"], "evil.example", 421), ("0.0.0.0", ["api.example.com"], "0.0.0.0", 421),
            ("10.0.0.5", ["api.example.com"], "10.0.0.5:8080", 200),
            ("10.0.0.5", ["api.example.com"], "localhost", 421),
        ] as [(String, [String], String, Int)])
    func otherHost(bound: String, publicHosts: [String], host: String, status: Int) throws {
        let policy = try Self.policy(host: bound, publicHosts: publicHosts)
        #expect(Self.status(policy.verdict(method: "GET", host: host, origin: nil, requestedMethod: nil)) == status)
    }

    @Test(
        "Origin: none, the server's own, or a --cors-origin is served; any other is refused",
        arguments: [
            (nil, 200, false), ("https://app.example.com", 200, true), ("HTTPS://APP.example.com", 200, true),
            ("http://127.0.0.1:8080", 200, false), ("https://127.0.0.1:8080", 200, false),
            ("https://evil.example", 403, false), ("http://127.0.0.1:9999", 403, false),
            ("http://127.0.0.1", 403, false), ("null", 403, false), ("http://app.example.com", 403, false),
            ("https://app.example.com:8443", 403, false), ("https://app.example.com.evil.example", 403, false),
            ("", 403, false), ("ws://127.0.0.1", 200, false), ("wss://anything.example", 200, false),
            ("ws:/x", 403, false),
        ] as [(String?, Int, Bool)])
    func origin(origin: String?, status: Int, cors: Bool) throws {
        let policy = try Self.policy(origins: ["https://app.example.com/"])
        for method in ["GET", "POST", "DELETE"] {
            let verdict = policy.verdict(method: method, host: "127.0.0.1:8080", origin: origin, requestedMethod: nil)
            #expect(Self.status(verdict) == status)
            switch verdict {
            case .serve(let corsOrigin): #expect((corsOrigin != nil) == cors)
            case .refuse(let error):
                #expect(error.code == "origin_not_allowed")
                #expect(error.message.contains("--cors-origin"))
            case .answerPreflight: Issue.record("not a preflight")
            }
        }
    }

    @Test("a preflight from an allowed origin is answered 204 with the CORS headers; from another, 403")
    func preflight() throws {
        let policy = try Self.policy(origins: ["http://localhost:5173"])
        let verdict = policy.verdict(
            method: "OPTIONS", host: "127.0.0.1:8080", origin: "http://localhost:5173", requestedMethod: "POST")
        guard case .answerPreflight(let fields) = verdict else {
            Issue.record("expected a preflight answer, got \(verdict)")
            return
        }
        #expect(fields[.accessControlAllowOrigin] == "http://localhost:5173")
        #expect(fields[.accessControlAllowMethods]?.contains("POST") == true)
        for header in ["Authorization", "Content-Type", "Last-Event-ID"] {
            #expect(fields[.accessControlAllowHeaders]?.contains(header) == true)
        }
        #expect(fields[.accessControlMaxAge] == "600")
        #expect(fields[.vary] == "Origin")
        let refused = policy.verdict(
            method: "OPTIONS", host: "127.0.0.1:8080", origin: "https://evil.example", requestedMethod: "POST")
        #expect(Self.status(refused) == 403)
        // OPTIONS without Access-Control-Request-Method is not a preflight: it goes to the routes.
        let plain = policy.verdict(
            method: "OPTIONS", host: "127.0.0.1:8080", origin: "http://localhost:5173", requestedMethod: nil)
        #expect(Self.status(plain) == 200)
    }

    @Test("the response headers of an allowed origin name it, never *, and expose what a client reads")
    func responseHeaders() {
        let fields = BrowserPolicy.responseHeaders(origin: "https://app.example.com")
        #expect(fields[.accessControlAllowOrigin] == "https://app.example.com")
        #expect(fields[.vary] == "Origin")
        for header in ["Cadence-Answer-ID", "Retry-After", "WWW-Authenticate"] {
            #expect(fields[.accessControlExposeHeaders]?.contains(header) == true)
        }
    }

    @Test(
        "a POST body must be application/json (a charset is fine); other methods are not checked",
        arguments: [
            ("POST", "application/json", false), ("POST", "application/json; charset=utf-8", false),
            ("POST", " Application/JSON ;charset=UTF-8", false), ("POST", "text/plain", true),
            ("POST", "text/plain;charset=UTF-8", true), ("POST", "application/x-www-form-urlencoded", true),
            ("POST", "multipart/form-data; boundary=x", true), ("POST", "application/jsonp", true),
            ("POST", nil, true), ("POST", "", true), ("GET", nil, false), ("DELETE", "text/plain", false),
        ] as [(String, String?, Bool)])
    func mediaType(method: String, contentType: String?, refused: Bool) throws {
        let refusal = try Self.policy().mediaTypeRefusal(method: method, contentType: contentType)
        #expect((refusal != nil) == refused)
        if let refusal {
            #expect(refusal.status == .unsupportedMediaType)
            #expect(refusal.code == "unsupported_media_type")
            #expect(refusal.message.contains("application/json"))
        }
    }

    @Test(
        "a CORS origin must be scheme://host[:port]; * and null would let any page in",
        arguments: [
            ("https://app.example.com", "https://app.example.com"), ("HTTP://Localhost:5173/", "http://localhost:5173"),
            ("capacitor://localhost", "capacitor://localhost"), ("*", nil), ("null", nil), ("app.example.com", nil),
            ("https://app.example.com/path", nil), ("https://", nil), ("://x", nil), ("https://user@host", nil),
            ("", nil),
        ] as [(String, String?)])
    func corsOriginSyntax(origin: String, normalized: String?) {
        #expect((try? BrowserPolicy.normalizedOrigin(origin)) == normalized)
        #expect((try? Self.policy(origins: [origin])) == nil ? normalized == nil : normalized != nil)
    }

    @Test(
        "loopback is localhost, 127.0.0.0/8 and ::1",
        arguments: [
            ("127.0.0.1", true), ("127.255.0.9", true), ("localhost", true), ("::1", true), ("[::1]", true),
            ("0.0.0.0", false), ("10.0.0.1", false), ("127.0.0.256", false), ("127.0.0", false),
            ("127.example.com", false), ("::", false), ("localhost.example.com", false),
        ])
    func loopback(host: String, isLoopback: Bool) {
        #expect(BrowserPolicy.isLoopback(host) == isLoopback)
    }
}
