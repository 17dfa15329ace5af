import Hummingbird

/// Why the events of an answer cannot be served: the id is unknown, the answer was forgotten, the
/// events after the client's cursor were dropped from the bounded replay log, or the cursor is past
/// the answer's last event (no reader was ever sent that sequence).
enum AnswerLookupError: Error, Sendable, HTTPResponseError {
    case unknown(String)
    case gone(String)
    case evicted(String, after: Int, firstRetained: Int)
    case pastEnd(String, after: Int, lastSequence: Int, ended: Bool)

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
        case .pastEnd(let id, let after, let last, let ended):
            APIError(
                status: .rangeNotSatisfiable, code: "cursor_out_of_range",
                message: (ended ? "the answer \"\(id)\" ended with " : "the answer \"\(id)\" has sent ")
                    + (last == 1 ? "1 event" : "\(last) events") + (ended ? "" : " so far")
                    + "; \(after) is past its last event, so it was never sent; resume from a sequence you received")
        }
    }
}

extension AnswerLookupError {
    var status: HTTPResponse.Status { apiError.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try apiError.response(from: request, context: context)
    }
}
