import AsyncHTTPClient
import CadenceCore
import CadenceTesting
import Foundation
import Hummingbird
import JWTKit
import Testing

@testable import CadenceServer

/// `ServerConfiguration.jwt`: each request's JSON Web Token is verified with jwt-kit in the
/// connection guard, and every wrong token is refused with 401 before any route runs.
@Suite("JWT authentication", .timeLimit(.minutes(2)))
struct JWTAuthenticationTests {
    typealias Route = AccessControlTests.Route
    /// A route that answers 404 once admitted (the id does not exist) and 401 when refused.
    static let probe = Route(method: .GET, path: "/v1/answers/ans_00000000000000000000000000000000/events")

    static func status(of token: String, on server: RunningServer) async throws -> (Int, String) {
        let (status, _, body) = try await AccessControlTests.send(Self.probe, to: server, authorization: "Bearer " + token)
        return (status, body)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var admitted: Bool
        var token: @Sendable () async throws -> String
    }

    static let hs256Cases: [Case] = [
        Case(testDescription: "valid HS256", admitted: true) { try await JWTTestKeys.hs256(JWTTestKeys.claims()) },
        Case(testDescription: "expired", admitted: false) {
            try await JWTTestKeys.hs256(JWTTestKeys.claims { $0.exp = ExpirationClaim(value: Date().addingTimeInterval(-3600)) })
        },
        Case(testDescription: "no exp", admitted: false) { try await JWTTestKeys.hs256(JWTTestKeys.claims { $0.exp = nil }) },
        Case(testDescription: "not yet valid", admitted: false) {
            try await JWTTestKeys.hs256(JWTTestKeys.claims { $0.nbf = NotBeforeClaim(value: Date().addingTimeInterval(3600)) })
        },
        Case(testDescription: "wrong iss", admitted: false) {
            try await JWTTestKeys.hs256(JWTTestKeys.claims { $0.iss = IssuerClaim(value: "https://evil.example/") })
        },
        Case(testDescription: "wrong aud", admitted: false) {
            try await JWTTestKeys.hs256(JWTTestKeys.claims { $0.aud = AudienceClaim(value: ["someone-else"]) })
        },
        Case(testDescription: "no sub", admitted: false) { try await JWTTestKeys.hs256(JWTTestKeys.claims { $0.sub = nil }) },
        Case(testDescription: "alg none", admitted: false) { try JWTTestKeys.unsigned(JWTTestKeys.claims()) },
        Case(testDescription: "bad signature", admitted: false) {
            try await JWTTestKeys.hs256(JWTTestKeys.claims(), secret: Array("another-secret-of-more-than-32-bytes".utf8))
        },
        Case(testDescription: "not a JWT", admitted: false) { "s3cret" },
    ]

    @Test("HS256 tokens: only a valid one is admitted", arguments: hs256Cases)
    func hs256(_ testCase: Case) async throws {
        try await withServer(engine: instantEngine, configuration: JWTTestKeys.hs256Configuration()) { server in
            let (status, body) = try await Self.status(of: try await testCase.token(), on: server)
            #expect(status == (testCase.admitted ? 404 : 401), "\(body)")
            if !testCase.admitted { #expect(try JSONValue(parsing: body)["error"]?["code"]?.stringValue == "unauthorized") }
        }
    }

    @Test("RS256 and ES256 through a JWKS file; algorithm swaps and unknown keys are refused")
    func jwksFile() async throws {
        let keys = try await JWTTestKeys.KeyPairs.make()
        var configuration = ServerConfiguration()
        configuration.jwt = JWTConfiguration(
            keys: .jwks(keys.jwks), issuer: JWTTestKeys.issuer, audience: JWTTestKeys.audience)
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let claims = JWTTestKeys.claims()
            let rs256 = try await keys.sign(claims, kid: "r1")
            let es256 = try await keys.sign(claims, kid: "e1")
            #expect(try await Self.status(of: rs256, on: server).0 == 404)
            #expect(try await Self.status(of: es256, on: server).0 == 404)
            // HS256 "signed" with the RSA public key, naming the RSA key: the classic algorithm swap.
            let publicPEM = Array(keys.rsa.publicKey.pemRepresentation.utf8)
            let swapped = try await JWTTestKeys.hs256(claims, secret: publicPEM, kid: "r1")
            let (swapStatus, swapBody) = try await Self.status(of: swapped, on: server)
            #expect(swapStatus == 401, "\(swapBody)")
            // An HS256 token naming no key, signed with the JWKS text itself.
            let bySet = try await JWTTestKeys.hs256(claims, secret: Array(keys.jwks.utf8))
            #expect(try await Self.status(of: bySet, on: server).0 == 401)
            let unsigned = try JWTTestKeys.unsigned(claims)
            #expect(try await Self.status(of: unsigned, on: server).0 == 401)
            // Expired, through the same keys.
            let expired = JWTTestKeys.claims { $0.exp = ExpirationClaim(value: Date().addingTimeInterval(-3600)) }
            let expiredToken = try await keys.sign(expired, kid: "e1")
            #expect(try await Self.status(of: expiredToken, on: server).0 == 401)
            // Signed by a key of another set, under a kid of this one.
            let other = try await JWTTestKeys.KeyPairs.make()
            let foreign = try await other.sign(claims, kid: "r1")
            #expect(try await Self.status(of: foreign, on: server).0 == 401)
        }
    }

    @Test("--jwks-url: the key set is fetched from the operator's URL when the server starts")
    func jwksURL() async throws {
        let keys = try await JWTTestKeys.KeyPairs.make()
        let router = Router()
        let jwks = keys.jwks
        router.get("/.well-known/jwks.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: jwks)))
        }
        let provider = try await LoopbackServer.start(router: router, label: "jwks")
        defer { Task { await provider.shutdown() } }
        var configuration = ServerConfiguration()
        configuration.jwt = JWTConfiguration(
            keys: .jwksURL("http://127.0.0.1:\(provider.port)/.well-known/jwks.json"), issuer: JWTTestKeys.issuer,
            audience: JWTTestKeys.audience)
        try await withServer(engine: instantEngine, configuration: configuration) { server in
            let rs256 = try await keys.sign(JWTTestKeys.claims(), kid: "r1")
            let es256 = try await keys.sign(JWTTestKeys.claims(), kid: "e1")
            let hs256 = try await JWTTestKeys.hs256(JWTTestKeys.claims())
            #expect(try await Self.status(of: rs256, on: server).0 == 404)
            #expect(try await Self.status(of: es256, on: server).0 == 404)
            #expect(try await Self.status(of: hs256, on: server).0 == 401)
        }
        // A URL that does not answer with a key set stops the start with a message saying so.
        configuration.jwt?.keys = .jwksURL("http://127.0.0.1:\(provider.port)/missing")
        await #expect(throws: ServerStartError.self) {
            _ = try await ReferenceServer(engine: instantEngine, configuration: configuration).start()
        }
    }

    @Test("a client cannot claim a subject by sending the guard's header")
    func subjectHeaderIsTheGuards() async throws {
        try await withServer(engine: instantEngine, configuration: JWTTestKeys.hs256Configuration()) { server in
            let ada = try await JWTTestKeys.bearer("ada")
            let (_, _, created) = try await AccessControlTests.send(
                Route(method: .POST, path: "/v1/conversations", body: #"{"query":"What is SSE?"}"#), to: server,
                authorization: ada)
            let id = try #require(JSONValue(parsing: created)["message_id"]?.stringValue)
            var request = HTTPClientRequest(url: server.baseURL + "/v1/answers/\(id)/events")
            request.headers.add(name: "Authorization", value: try await JWTTestKeys.bearer("mallory"))
            request.headers.add(name: "Cadence-Verified-Subject", value: "ada")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 404)
            request.headers.replaceOrAdd(name: "Authorization", value: ada)
            #expect(try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status.code == 200)
        }
    }
}
