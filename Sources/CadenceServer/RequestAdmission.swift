/// Which request heads the server refuses before reading anything more of the request: one whose
/// sender ``Authenticator`` does not admit (401), and one that declares a body larger than the limit
/// (413). It only decides; ``RequestGuardHandler`` asks it about every head, HTTP and WebSocket
/// upgrade alike.
///
/// ```swift
/// let admission = RequestAdmission(configuration: ServerConfiguration(token: "s3cret"))
/// admission.refusal(path: "/healthz", authorization: nil, contentLength: nil)                // nil: open
/// admission.refusal(path: "/v1/answers", authorization: "Bearer s3cret", contentLength: "20") // nil: admitted
/// admission.refusal(path: "/v1/answers", authorization: nil, contentLength: "20")?.status     // .unauthorized
/// ```
struct RequestAdmission: Sendable {
    /// What becomes of a request head.
    enum Verdict {
        /// Refused with this error.
        case refuse(APIError)
        /// Served; `subject` is its sender (`nil` on an open path, which serves anyone).
        case admit(subject: String?)
        /// Served once the token is verified, as its subject; refused if it is not valid.
        case verify(String, JWTVerifier)
    }

    let authenticator: Authenticator
    let maxRequestBytes: Int

    /// The only paths served without the token: a load balancer's health check must not need it.
    static let openPaths: Set<String> = ["/healthz"]

    init(configuration: ServerConfiguration, jwt: JWTVerifier? = nil) {
        authenticator = Authenticator(token: configuration.token, jwt: jwt)
        maxRequestBytes = configuration.maxRequestBytes
    }

    /// What becomes of a request with this head.
    ///
    /// - Parameters:
    ///   - path: the request target as sent (a query is ignored). Every path but ``openPaths`` needs
    ///     the token, so an unknown or oddly spelled path is never a way around it.
    ///   - authorization: the `Authorization` header, if any.
    ///   - contentLength: the `Content-Length` header, if any (a chunked body is limited as it is read).
    func verdict(path: String, authorization: String?, contentLength: String?) -> Verdict {
        var outcome = Authenticator.Outcome.subject(Authenticator.soleSubject)
        let open = Self.openPaths.contains(String(Self.pathWithoutQuery(path)))
        if !open {
            outcome = authenticator.authenticate(authorization: authorization)
            if case .refused(let error) = outcome { return .refuse(error) }
        }
        if let contentLength, let bytes = Int(contentLength.trimmingSpaces), bytes > maxRequestBytes {
            return .refuse(.tooLarge("the request body has \(bytes) bytes; the limit is \(maxRequestBytes)"))
        }
        switch outcome {
        case .subject(let subject): return .admit(subject: open ? nil : subject)
        case .verify(let token, let verifier): return .verify(token, verifier)
        case .refused(let error): return .refuse(error)
        }
    }

    /// Why a request with this head is refused at once, or `nil` (see ``verdict(path:authorization:contentLength:)``).
    func refusal(path: String, authorization: String?, contentLength: String?) -> APIError? {
        if case .refuse(let error) = verdict(path: path, authorization: authorization, contentLength: contentLength) {
            return error
        }
        return nil
    }

    private static func pathWithoutQuery(_ target: String) -> Substring {
        target.prefix { $0 != "?" && $0 != "#" }
    }
}
