import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// Verifies the JSON Web Tokens of ``JWTConfiguration`` with jwt-kit and says whose they are: the
/// token's `sub`, or a 401 that says what is wrong with it.
///
/// jwt-kit checks the signature. Before it is asked, the token's header must name the algorithm of
/// the key it names (HS256 for the secret; RS256 or ES256 as each key of the set says, or as its key
/// type implies), so `alg: none` and algorithm swaps (an HS256 token "signed" with an RSA public key)
/// never reach a verifier. After it, the claims are checked against ``now``, an injected wall clock.
///
/// Verification is `async` (jwt-kit's key collection is an actor) and RSA or ECDSA work is CPU work:
/// ``RequestGuardHandler`` runs it off the connection's event loop and pauses that connection's reads
/// until it is done.
final class JWTVerifier: Sendable {
    /// The keys a token may be signed with, and the one algorithm each is for, by `kid`
    /// (``secretKeyID`` for the shared secret, whatever `kid` a token names).
    struct KeySet: Sendable {
        let collection: JWTKeyCollection
        let algorithms: [String: String]
    }

    static let secretKeyID = ""
    /// The longest `sub` accepted; a longer one is refused rather than stored with every answer.
    static let maxSubjectLength = 255

    let configuration: JWTConfiguration
    let now: @Sendable () -> Date
    private let keys: NIOLockedValueBox<KeySet>

    init(configuration: JWTConfiguration, keys: KeySet, now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.keys = NIOLockedValueBox(keys)
        self.now = now
    }

    /// Replaces the keys (a refreshed JSON Web Key Set).
    func replaceKeys(_ keySet: KeySet) {
        keys.withLockedValue { $0 = keySet }
    }

    /// The token's subject, or why it is refused.
    func subject(of token: String) async -> Result<String, APIError> {
        let keySet = keys.withLockedValue { $0 }
        let claims: AccessClaims
        do {
            let header = try TokenHeader(token: token)
            try Self.requireAlgorithm(of: header, in: keySet)
            claims = try await keySet.collection.verify(token, as: AccessClaims.self)
        } catch let error as APIError {
            return .failure(error)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            return .failure(.unauthorized("the token's signature is not valid"))
        } catch {
            return .failure(.unauthorized("the token could not be verified: \(Self.describe(error))"))
        }
        return claims.subject(configuration: configuration, now: now())
    }

    /// Throws a 401 unless the header names an algorithm of ours and, with a key set, a key whose
    /// algorithm it is.
    static func requireAlgorithm(of header: TokenHeader, in keySet: KeySet) throws {
        guard let algorithm = header.alg, algorithm.lowercased() != "none" else {
            throw APIError.unauthorized("the token is not signed (alg none); send a signed token")
        }
        let keyID: String
        if let expected = keySet.algorithms[secretKeyID] {
            guard algorithm == expected else {
                throw APIError.unauthorized("the token is signed with \(algorithm); this server accepts \(expected)")
            }
            return
        } else if let kid = header.kid {
            keyID = kid
        } else if keySet.algorithms.count == 1, let only = keySet.algorithms.keys.first {
            keyID = only
        } else {
            throw APIError.unauthorized("the token names no key (kid); this server has several")
        }
        guard let expected = keySet.algorithms[keyID] else {
            throw APIError.unauthorized("the token's key \"\(keyID)\" is not one of this server's keys")
        }
        guard algorithm == expected else {
            throw APIError.unauthorized("the token is signed with \(algorithm), but its key \"\(keyID)\" is for \(expected)")
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? JWTError)?.reason ?? String(describing: error)
    }
}

extension JWTVerifier.KeySet {
    /// The key set of a shared secret (HS256), which must have at least 32 bytes.
    static func secret(_ secret: [UInt8]) async throws -> Self {
        guard secret.count >= 32 else {
            throw JWTKeysError(message: "the JWT secret has \(secret.count) bytes; HS256 needs at least 32")
        }
        let collection = JWTKeyCollection()
        await collection.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return Self(collection: collection, algorithms: [JWTVerifier.secretKeyID: "HS256"])
    }

    /// The RS256 and ES256 keys of a JSON Web Key Set. Every key needs a `kid`; a key for another
    /// algorithm is an error rather than silently left out.
    static func jwks(_ json: String) async throws -> Self {
        let set: JWKS
        do {
            set = try JSONDecoder().decode(JWKS.self, from: Data(json.utf8))
        } catch {
            throw JWTKeysError(message: "the JSON Web Key Set is not valid JSON of {\"keys\": [...]}: \(error)")
        }
        let collection = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        for key in set.keys {
            guard let kid = key.keyIdentifier?.string, !kid.isEmpty else {
                throw JWTKeysError(message: "every key of the JSON Web Key Set needs a \"kid\"")
            }
            guard let algorithm = Self.algorithm(of: key) else {
                throw JWTKeysError(message: "the key \"\(kid)\" is not an RS256 or ES256 (P-256) key")
            }
            do {
                try await collection.add(jwk: key)
            } catch {
                throw JWTKeysError(message: "the key \"\(kid)\" is not usable: \(error)")
            }
            algorithms[kid] = algorithm
        }
        guard !algorithms.isEmpty else { throw JWTKeysError(message: "the JSON Web Key Set has no keys") }
        return Self(collection: collection, algorithms: algorithms)
    }

    /// The algorithm a key is for: its `alg`, or RS256 for an RSA key and ES256 for a P-256 key.
    private static func algorithm(of key: JWK) -> String? {
        switch (key.keyType, key.algorithm) {
        case (.rsa, .rs256?), (.rsa, nil): "RS256"
        // ES256 is ECDSA on P-256 only, whether or not the key names its algorithm.
        case (.ecdsa, .es256?), (.ecdsa, nil): key.curve == nil || key.curve == .ecdsa(.p256) ? "ES256" : nil
        default: nil
        }
    }
}

/// The keys given for verifying tokens cannot be used; the message says why.
public struct JWTKeysError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The fields of a token's header that decide which key verifies it, read before any verification.
struct TokenHeader: Decodable {
    var alg: String?
    var kid: String?

    init(token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Self.base64URLDecoded(parts[0]),
            let header = try? JSONDecoder().decode(Self.self, from: data)
        else {
            throw APIError.unauthorized("the token is not a JWT (header.payload.signature)")
        }
        self = header
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// The claims Cadence reads from a token. jwt-kit decodes them; ``subject(configuration:now:)``
/// checks them against the injected time rather than in `verify(using:)`, which reads the system clock.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var iss: IssuerClaim?
    var aud: AudienceClaim?

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// The `sub` if every claim holds at `now`, or a 401 naming the one that does not.
    func subject(configuration: JWTConfiguration, now: Date) -> Result<String, APIError> {
        let leeway = configuration.leeway.seconds
        guard let exp else { return .failure(.unauthorized("the token has no exp (expiry)")) }
        guard (try? exp.verifyNotExpired(currentDate: now.addingTimeInterval(-leeway))) != nil else {
            return .failure(.unauthorized("the token has expired"))
        }
        if let nbf, (try? nbf.verifyNotBefore(currentDate: now.addingTimeInterval(leeway))) == nil {
            return .failure(.unauthorized("the token is not valid yet (nbf)"))
        }
        guard iss?.value == configuration.issuer else {
            return .failure(.unauthorized("the token's iss is not the issuer this server trusts"))
        }
        guard let aud, aud.value.contains(configuration.audience) else {
            return .failure(.unauthorized("the token's aud does not include \"\(configuration.audience)\""))
        }
        guard let subject = sub?.value, !subject.isEmpty, subject.count <= JWTVerifier.maxSubjectLength else {
            return .failure(.unauthorized("the token needs a sub of 1 to \(JWTVerifier.maxSubjectLength) characters"))
        }
        return .success(subject)
    }
}
