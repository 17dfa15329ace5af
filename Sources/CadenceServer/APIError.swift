import CadenceCore
import Hummingbird

/// An error the server answers with a JSON body: `{"error": {"code": …, "message": …}}`, or on the
/// OpenAI-compatible routes OpenAI's shape, `{"error": {"message": …, "type": …, "code": …}}`
/// (``Shape``), which the guard and the routes pick by the request's path.
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

    /// How an error body is written.
    enum Shape: Sendable {
        /// `{"error": {"code", "message"}}`, on every route but the OpenAI-compatible ones.
        case cadence
        /// OpenAI's `{"error": {"message", "type", "code", "param": null}}`, which OpenAI's client
        /// libraries read (their exception carries `message`, `type` and `code`).
        case openAI

        /// The shape of the errors answered to a request for this target (a query is ignored).
        init(path: String) {
            let path = path.prefix { $0 != "?" && $0 != "#" }
            self = path == ChatCompletionRoutes.path || path.hasPrefix(ChatCompletionRoutes.path + "/") ? .openAI : .cadence
        }
    }

    /// The body, with its final newline.
    var jsonText: String { jsonText(shape: .cadence) }

    /// The body in `shape`, with its final newline.
    func jsonText(shape: Shape) -> String {
        (shape == .openAI ? openAIError : ["error": ["code": .string(code), "message": .string(message)]]).jsonText + "\n"
    }

    /// The error as OpenAI writes one, also inside a stream (an `{"error": …}` chunk).
    var openAIError: JSONValue {
        ["error": ["message": .string(message), "type": .string(openAIType), "code": .string(code), "param": nil]]
    }

    /// OpenAI's `type` for this status: the class of error its client libraries raise for it.
    var openAIType: String {
        switch status.code {
        case 401: "authentication_error"
        case 403: "permission_error"
        case 429: "rate_limit_error"
        case 500...: "server_error"
        default: "invalid_request_error"
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        let body = jsonText(shape: Shape(path: request.uri.path))
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
