/// How the server verifies the JSON Web Tokens its clients send as `Authorization: Bearer JWT`, so
/// that each request carries the `sub` of the person who sent it (``ServerConfiguration/jwt``).
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.jwt = JWTConfiguration(
///     keys: .jwksURL("https://auth.example.com/.well-known/jwks.json"),
///     issuer: "https://auth.example.com/", audience: "cadence")
/// ```
///
/// A token is admitted when its signature verifies with one of the keys under the algorithm that
/// key is for (HS256 for a shared secret; RS256 or ES256 for a JSON Web Key Set), its `exp` is in the
/// future and its `nbf` (if any) in the past, its `iss` is ``issuer`` and its `aud` includes
/// ``audience``, and it has a `sub`. `alg: none`, and a token whose `alg` is not its key's, are refused.
public struct JWTConfiguration: Sendable, Hashable {
    /// Where the keys come from.
    public enum Keys: Sendable, Hashable {
        /// A shared secret (HS256); at least 32 bytes.
        case secret([UInt8])
        /// A JSON Web Key Set (RS256 and ES256 keys), as JSON text.
        case jwks(String)
        /// A JSON Web Key Set fetched from this URL when the server starts and every
        /// ``JWTConfiguration/refreshInterval`` after; redirects are not followed.
        case jwksURL(String)
    }

    /// Where the keys come from.
    public var keys: Keys
    /// The `iss` every token must carry.
    public var issuer: String
    /// A value the `aud` of every token must include.
    public var audience: String
    /// How often keys fetched from a URL are fetched again (a failed fetch keeps the keys there are).
    public var refreshInterval: Duration
    /// How far a token's `exp` and `nbf` may be off from the server's clock.
    public var leeway: Duration

    public init(
        keys: Keys, issuer: String, audience: String, refreshInterval: Duration = .seconds(300),
        leeway: Duration = .seconds(30)
    ) {
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
        self.refreshInterval = refreshInterval
        self.leeway = leeway
    }
}
