import CadenceCore
import Hummingbird

/// An error the server answers with a JSON body: `{"error": {"code": …, "message": …}}`.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Headers sent with the error besides `Content-Type` (`WWW-Authenticate` for a 401).
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "invalid_request", message: message)
    }

    static func tooLarge(_ message: String) -> APIError {
        APIError(status: .contentTooLarge, code: "too_large", message: message)
    }

    /// A 401 with `WWW-Authenticate: Bearer`, saying whether the token was missing or wrong.
    static func unauthorized(_ message: String) -> APIError {
        APIError(
            status: .unauthorized, code: "unauthorized", message: message,
            headers: [.wwwAuthenticate: #"Bearer realm="cadence""#])
    }

    /// The body, with its final newline.
    var jsonText: String {
        let body: JSONValue = ["error": ["code": .string(code), "message": .string(message)]]
        return body.jsonText + "\n"
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: jsonText)))
    }
}
