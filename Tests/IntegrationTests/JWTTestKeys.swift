import CryptoExtras
import Foundation
import JWTKit

@testable import CadenceServer

/// The claims the tests put in tokens (the server's own claims type); each may be left out or made wrong.
typealias TestClaims = AccessClaims

/// Keys and tokens for the identity tests, made with jwt-kit as an identity provider would.
enum JWTTestKeys {
    static let issuer = "https://auth.test.example/"
    static let audience = "cadence"
    static let secret = Array("a-test-secret-of-more-than-32-bytes!".utf8)

    /// Valid claims for `subject`, changed by `edit`.
    static func claims(_ subject: String = "ada", _ edit: (inout TestClaims) -> Void = { _ in }) -> TestClaims {
        var claims = TestClaims(
            sub: SubjectClaim(value: subject), exp: ExpirationClaim(value: Date().addingTimeInterval(3600)),
            nbf: NotBeforeClaim(value: Date().addingTimeInterval(-60)), iss: IssuerClaim(value: issuer),
            aud: AudienceClaim(value: [audience]))
        edit(&claims)
        return claims
    }

    /// A server configuration that verifies HS256 tokens signed with ``secret``.
    static func hs256Configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.jwt = JWTConfiguration(keys: .secret(secret), issuer: issuer, audience: audience)
        return configuration
    }

    /// A token signed with HS256 and `secret`.
    static func hs256(_ claims: TestClaims, secret: [UInt8] = secret, kid: String? = nil) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(claims, kid: kid.map { JWKIdentifier(string: $0) })
    }

    /// The bearer header of `subject`'s valid HS256 token.
    static func bearer(_ subject: String) async throws -> String {
        "Bearer " + (try await hs256(claims(subject)))
    }

    /// A token with `alg: none` and no signature.
    static func unsigned(_ claims: TestClaims) throws -> String {
        let header = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        return header + "." + base64URL(try JSONEncoder().encode(claims)) + "."
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An RSA and a P-256 key pair, their public halves as a JSON Web Key Set (`kid` r1 and e1), and
    /// a collection that signs with the private halves.
    struct KeyPairs: Sendable {
        let rsa: JWTKit.Insecure.RSA.PrivateKey
        let signer: JWTKeyCollection
        let jwks: String

        static func make() async throws -> KeyPairs {
            let rsa = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            let ec = ES256PrivateKey()
            let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
            let point = ec.parameters!
            let jwks = """
                {"keys":[
                  {"kty":"RSA","kid":"r1","alg":"RS256","use":"sig","n":"\(base64URL(modulus))","e":"\(base64URL(exponent))"},
                  {"kty":"EC","kid":"e1","crv":"P-256","x":"\(point.x)","y":"\(point.y)"}
                ]}
                """
            let signer = JWTKeyCollection()
            await signer.add(rsa: rsa, digestAlgorithm: .sha256, kid: "r1")
            await signer.add(ecdsa: ec, kid: "e1")
            return KeyPairs(rsa: rsa, signer: signer, jwks: jwks)
        }

        func sign(_ claims: TestClaims, kid: String) async throws -> String {
            try await signer.sign(claims, kid: JWKIdentifier(string: kid))
        }
    }
}
