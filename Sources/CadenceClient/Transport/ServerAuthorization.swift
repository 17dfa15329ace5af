import CadenceCore
import NIOHTTP1

/// The research server's access token on the client side: the header every request carries, and
/// what a 401 means.
enum ServerAuthorization {
    /// `Authorization: Bearer TOKEN`, or nothing without a token.
    static func add(_ token: String?, to headers: inout HTTPHeaders) {
        if let token { headers.add(name: "Authorization", value: "Bearer " + token) }
    }

    /// A research server's 401 as a clear, non-retryable error: whether a token was missing or refused.
    static func unauthorized(tokenSent: Bool, body: String) -> CadenceClientError {
        let what = tokenSent ? "the server refused the token it was sent" : "the server needs a token"
        return CadenceClientError(
            .httpStatus, message: "\(what) (HTTP 401 Unauthorized)", status: 401, body: body, retryable: false)
    }

    /// `error`, unless it is a 401 from the research server: then ``unauthorized(tokenSent:body:)``.
    static func explain(_ error: any Error, tokenSent: Bool) -> any Error {
        guard let error = error as? CadenceClientError, error.code == .httpStatus, error.status == 401 else {
            return error
        }
        return unauthorized(tokenSent: tokenSent, body: error.body ?? "")
    }
}
