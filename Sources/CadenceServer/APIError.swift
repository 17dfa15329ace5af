import CadenceCore
import Hummingbird

/// An error the server answers with a JSON body: `{"error": {"code": …, "message": …}}`.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Extra response headers, such as `Retry-After` on a 503.
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "invalid_request", message: message)
    }

    static func tooLarge(_ message: String) -> APIError {
        APIError(status: .contentTooLarge, code: "too_large", message: message)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body: JSONValue = ["error": ["code": .string(code), "message": .string(message)]]
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: body.jsonText + "\n"))
        )
    }
}
