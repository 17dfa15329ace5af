import Foundation
import NIOHTTP1

/// Who sent a request: the one subject of a server with no auth or a static token, or the `sub` of a
/// verified JSON Web Token. ``RequestAdmission`` asks it about every request head, and
/// ``RequestGuardHandler`` hands the subject to the routes in ``subjectHeader``, which it sets
/// itself after removing any a client sent, so no client can claim a subject.
///
/// ```swift
/// let open = Authenticator(token: nil, jwt: nil)
/// open.authenticate(authorization: nil)                  // .subject(Authenticator.soleSubject)
/// let shared = Authenticator(token: "s3cret", jwt: nil)
/// shared.authenticate(authorization: "Bearer wrong")     // .refused(401)
/// ```
struct Authenticator: Sendable {
    /// What is known of a request's sender from its head alone.
    enum Outcome {
        /// The sender is this subject.
        case subject(String)
        /// The request is refused (401).
        case refused(APIError)
        /// The sender is whoever this token says, once ``JWTVerifier`` has verified it.
        case verify(String, JWTVerifier)
    }

    /// The subject of every request on a server without JSON Web Tokens (no auth, or one `--token`):
    /// one person, as before there were subjects.
    static let soleSubject = ""

    /// The header the guard sets to the verified subject (percent-encoded) on every request it passes on.
    static let subjectHeader = "Cadence-Verified-Subject"

    /// The static token's bytes, or `nil`.
    let token: [UInt8]?
    let jwt: JWTVerifier?

    init(token: String?, jwt: JWTVerifier?) {
        self.token = token.map { Array($0.utf8) }
        self.jwt = jwt
    }

    /// Who sent a request with this `Authorization` header, or why it is refused.
    func authenticate(authorization: String?) -> Outcome {
        guard token != nil || jwt != nil else { return .subject(Self.soleSubject) }
        let scheme = jwt == nil ? "TOKEN" : "JWT"
        guard let authorization else {
            return .refused(.unauthorized("this server needs a token: send Authorization: Bearer \(scheme)"))
        }
        guard let credentials = Self.bearerCredentials(in: authorization) else {
            return .refused(.unauthorized("the Authorization header must be Bearer \(scheme)"))
        }
        if let jwt { return .verify(String(credentials), jwt) }
        guard let token, Self.matches(credentials, token) else { return .refused(.unauthorized("the token is not valid")) }
        return .subject(Self.soleSubject)
    }

    /// The head passed on to the routes: any ``subjectHeader`` the client sent removed, and the
    /// verified subject set (or none, on an open path, where no route reads it).
    static func head(_ head: HTTPRequestHead, subject: String?) -> HTTPRequestHead {
        var head = head
        head.headers.remove(name: subjectHeader)
        if let subject { head.headers.add(name: subjectHeader, value: encoded(subject)) }
        return head
    }

    /// A subject as a header value: percent-encoded, so that no byte of it is lost or changed.
    static func encoded(_ subject: String) -> String {
        subject.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// ASCII letters, digits and `-._~`: what a subject keeps as is in ``subjectHeader``.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The subject of a header value set by ``head(_:subject:)``.
    static func decoded(_ value: String) -> String? {
        value.removingPercentEncoding
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
