import CadenceCore
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The polling endpoints of a ``FaultServer``: `POST /v1/conversations/{c}/messages` answers
/// `{"message_id": answerID}`; `GET /v1/conversations/{c}/messages?since=N` answers at most
/// `batch` events after N and whether they reach the end. Faults apply as for streams:
/// `.status` answers that status, `.closeAfter` cuts the JSON, the others answer normally.
extension FaultServer {
    static func addPollingRoutes(
        to router: Router<BasicRequestContext>, script: FaultScript, answerID: String, batch: Int,
        state: NIOLockedValueBox<State>
    ) {
        router.post("/v1/conversations/:conversation/messages") { request, _ -> Response in
            var request = request
            _ = try await request.collectBody(upTo: 1 << 20)
            let fault = nextFault(state, method: "POST", path: request.uri.path, after: 0)
            return respond(to: fault, json: ["message_id": .string(answerID)])
        }
        router.get("/v1/conversations/:conversation/messages") { request, _ -> Response in
            let query = request.uri.queryParameters
            let since = query.get("since").flatMap { Int($0) } ?? 0
            let fault = nextFault(state, method: "GET", path: request.uri.path, after: since)
            if let id = query.get("message_id"), id != answerID {
                return FaultWriter.errorResponse(status: 404, headers: [:])
            }
            let events = script.events(after: since).filter { $0.sequence != nil }.prefix(max(1, batch))
            let done = (events.last?.sequence ?? since) >= script.lastSequence
            return respond(
                to: fault,
                json: ["message_id": .string(answerID), "events": .array(events.map(\.json)), "done": .bool(done)])
        }
    }

    private static func respond(to fault: Fault, json: JSONValue) -> Response {
        let bytes = Array((json.jsonText + "\n").utf8)
        switch fault {
        case .status(let status, let headers):
            return FaultWriter.errorResponse(status: status, headers: headers)
        case .closeAfter(let count):
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(bytes: bytes.prefix(count)))
                    throw FaultWriter.InjectedClose()
                })
        default:
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
