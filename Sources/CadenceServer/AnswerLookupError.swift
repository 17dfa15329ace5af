import Hummingbird

/// Why the events of an answer cannot be served: the id is unknown, the answer was forgotten, or the
/// events after the client's cursor were dropped from the bounded replay log.
enum AnswerLookupError: Error, Sendable, HTTPResponseError {
    case unknown(String)
    case gone(String)
    case evicted(String, after: Int, firstRetained: Int)

    var apiError: APIError {
        switch self {
        case .unknown(let id):
            APIError(status: .notFound, code: "answer_not_found", message: "there is no answer \"\(id)\"; ask again")
        case .gone(let id):
            APIError(
                status: .gone, code: "answer_gone",
                message: "the answer \"\(id)\" ended long ago and is no longer kept; ask again")
        case .evicted(let id, let after, let first):
            APIError(
                status: .gone, code: "events_evicted",
                message: "the events of \"\(id)\" after \(after) are no longer kept (the oldest kept is \(first)); ask again")
        }
    }
}

extension AnswerLookupError {
    var status: HTTPResponse.Status { apiError.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try apiError.response(from: request, context: context)
    }
}
