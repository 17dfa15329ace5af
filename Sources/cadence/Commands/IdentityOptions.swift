import ArgumentParser
import CadenceServer
import Foundation

/// Who each client of `cadence serve` is, and how much each may ask: JSON Web Tokens and the
/// per-subject limits (README, "Serving an app's users").
struct IdentityOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A file holding the HS256 secret clients' tokens are signed with (at least 32 bytes).", valueName: "path"))
    var jwtSecretFile: String?

    @Option(name: .long, help: ArgumentHelp("A JSON Web Key Set file of the RS256/ES256 keys clients' tokens are signed with.", valueName: "path"))
    var jwksFile: String?

    @Option(name: .long, help: ArgumentHelp("An https URL of the JSON Web Key Set, fetched at start and every 5 minutes.", valueName: "url"))
    var jwksURL: String?

    @Option(name: .long, help: "The iss every token must have (required with JWT keys).")
    var jwtIssuer: String?

    @Option(name: .long, help: "A value the aud of every token must include (required with JWT keys).")
    var jwtAudience: String?

    @Option(name: .long, help: "The most answers one user (token subject) produces at once; more get 429 with Retry-After.")
    var maxAnswersPerUser: Int?

    @Option(name: .long, help: "The most requests one user (token subject) makes a minute; more get 429 with Retry-After.")
    var rateLimit: Int?

    /// Whether clients are identified by JSON Web Tokens.
    var usesJWT: Bool { jwtSecretFile != nil || jwksFile != nil || jwksURL != nil }

    func validate() throws {
        let sources = [jwtSecretFile, jwksFile, jwksURL].compactMap { $0 }
        if sources.count > 1 {
            throw ValidationError("give one of --jwt-secret-file, --jwks-file and --jwks-url")
        }
        if usesJWT, jwtIssuer == nil || jwtAudience == nil {
            throw ValidationError("JWT keys need --jwt-issuer and --jwt-audience: a token is checked against both")
        }
        if !usesJWT, jwtIssuer != nil || jwtAudience != nil {
            throw ValidationError("--jwt-issuer and --jwt-audience need --jwt-secret-file, --jwks-file or --jwks-url")
        }
        if let jwksURL {
            guard let url = URL(string: jwksURL), let host = url.host,
                url.scheme == "https" || (url.scheme == "http" && BrowserPolicy.isLoopback(host))
            else {
                throw ValidationError("--jwks-url must be an https URL (http only on loopback), not \(jwksURL)")
            }
        }
        if let maxAnswersPerUser, maxAnswersPerUser < 1 {
            throw ValidationError("--max-answers-per-user must be at least 1")
        }
        if let rateLimit, rateLimit < 1 { throw ValidationError("--rate-limit must be at least 1 (requests a minute)") }
    }

    /// Sets the JWT keys and the per-subject limits of `configuration`, reading the key files.
    func apply(to configuration: inout ServerConfiguration) throws {
        configuration.maxAnswersPerSubject = maxAnswersPerUser
        configuration.rateLimit = rateLimit
        guard let keys = try keys(), let jwtIssuer, let jwtAudience else { return }
        if configuration.token != nil {
            throw ValidationError(
                "--token (or CADENCE_TOKEN) is one token for one person; with JWT keys every user has a token of "
                    + "their own: give one or the other")
        }
        configuration.jwt = JWTConfiguration(keys: keys, issuer: jwtIssuer, audience: jwtAudience)
    }

    private func keys() throws -> JWTConfiguration.Keys? {
        if let jwtSecretFile {
            var secret = Array(try Self.read(jwtSecretFile, option: "--jwt-secret-file"))
            // A secret written with `echo` or an editor ends with a newline that is not part of it.
            while let last = secret.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { secret.removeLast() }
            return .secret(secret)
        }
        if let jwksFile {
            return .jwks(String(decoding: try Self.read(jwksFile, option: "--jwks-file"), as: UTF8.self))
        }
        return jwksURL.map { .jwksURL($0) }
    }

    private static func read(_ path: String, option: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(option) \(path) cannot be read: \(error.localizedDescription)")
        }
    }
}
