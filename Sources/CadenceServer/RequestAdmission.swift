/// Which request heads the server refuses before reading anything more of the request: one without
/// the server's token (401), and one that declares a body larger than the limit (413). It only
/// decides; ``RequestGuardHandler`` asks it about every head, HTTP and WebSocket upgrade alike.
///
/// ```swift
/// let admission = RequestAdmission(configuration: ServerConfiguration(token: "s3cret"))
/// admission.refusal(path: "/healthz", authorization: nil, contentLength: nil)                // nil: open
/// admission.refusal(path: "/v1/answers", authorization: "Bearer s3cret", contentLength: "20") // nil: admitted
/// admission.refusal(path: "/v1/answers", authorization: nil, contentLength: "20")?.status     // .unauthorized
/// ```
struct RequestAdmission: Sendable {
    /// The token's bytes, or `nil` when the server lets anyone in.
    let token: [UInt8]?
    let maxRequestBytes: Int

    /// The only paths served without the token: a load balancer's health check must not need it.
    static let openPaths: Set<String> = ["/healthz"]

    init(configuration: ServerConfiguration) {
        token = configuration.token.map { Array($0.utf8) }
        maxRequestBytes = configuration.maxRequestBytes
    }

    /// Why a request with this head is refused, or `nil` to serve it.
    ///
    /// - Parameters:
    ///   - path: the request target as sent (a query is ignored). Every path but ``openPaths`` needs
    ///     the token, so an unknown or oddly spelled path is never a way around it.
    ///   - authorization: the `Authorization` header, if any.
    ///   - contentLength: the `Content-Length` header, if any (a chunked body is limited as it is read).
    func refusal(path: String, authorization: String?, contentLength: String?) -> APIError? {
        if let token, !Self.openPaths.contains(String(Self.pathWithoutQuery(path))) {
            guard let authorization else {
                return .unauthorized("this server needs a token: send Authorization: Bearer TOKEN")
            }
            guard let credentials = Self.bearerCredentials(in: authorization) else {
                return .unauthorized("the Authorization header must be Bearer TOKEN")
            }
            guard Self.matches(credentials, token) else {
                return .unauthorized("the token is not valid")
            }
        }
        if let contentLength, let bytes = Int(contentLength.trimmingSpaces), bytes > maxRequestBytes {
            return .tooLarge("the request body has \(bytes) bytes; the limit is \(maxRequestBytes)")
        }
        return nil
    }

    /// The credentials of a `Bearer` authorization (the scheme is case-insensitive), or `nil` for
    /// another scheme.
    static func bearerCredentials(in authorization: String) -> Substring? {
        let value = authorization.trimmingSpaces
        guard let space = value.firstIndex(of: " "), value[..<space].lowercased() == "bearer" else { return nil }
        return value[value.index(after: space)...].trimmingSpaces
    }

    /// Whether `given` equals `token`, in a time that depends only on the length of `given`, so the
    /// time a refusal takes says nothing about how much of a guess was right. An empty token matches
    /// nothing.
    static func matches(_ given: Substring, _ token: [UInt8]) -> Bool {
        guard !token.isEmpty else { return false }
        var difference = given.utf8.count ^ token.count
        var index = 0
        for byte in given.utf8 {
            difference |= Int(byte ^ token[index % token.count])
            index += 1
        }
        return difference == 0
    }

    private static func pathWithoutQuery(_ target: String) -> Substring {
        target.prefix { $0 != "?" && $0 != "#" }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return Substring()
        }
        return Substring(self[start...end])
    }
}
