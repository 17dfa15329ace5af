import CadenceCore
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A loopback research server that serves one scripted answer and injects faults on demand, for
/// testing transports and the reliability engine over real sockets.
///
/// It speaks the SSE half of the research protocol: `POST /v1/answers` (with the
/// `Cadence-Answer-ID` header) and `GET /v1/answers/{id}/events` with `Last-Event-ID` or `?after=N`
/// (replaying strictly after N). Each request takes the next queued ``Fault``; with none queued it
/// is answered normally. An unknown answer id gets 404.
///
/// ```swift
/// let server = try await FaultServer.start(script: .answer(text: "Grüße 🎉"))
/// server.enqueue(.closeAfter(bytes: 300), .status(503, headers: ["retry-after": "1"]))
/// // … the client's first request breaks at byte 300, its resume gets 503, the next one succeeds …
/// await server.shutdown()
/// ```
public final class FaultServer: Sendable {
    public let script: FaultScript
    public let answerID: String
    private let loopback: LoopbackServer
    private let state: NIOLockedValueBox<State>

    struct State {
        var faults: [Fault] = []
        var requests: [FaultRequest] = []
        var gates: [FaultGate] = []
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { loopback.baseURL }
    public var port: Int { loopback.port }

    /// The requests received so far, in order.
    public var requests: [FaultRequest] { state.withLockedValue { $0.requests } }

    private init(script: FaultScript, answerID: String, loopback: LoopbackServer, state: NIOLockedValueBox<State>) {
        self.script = script
        self.answerID = answerID
        self.loopback = loopback
        self.state = state
    }

    /// Starts the server on 127.0.0.1 with a free port.
    ///
    /// - Parameters:
    ///   - script: the answer's events, served to every request.
    ///   - answerID: the id in the `Cadence-Answer-ID` header, to resume with.
    ///   - keepAliveInterval: how often a stall with keepalives sends `: keepalive`, on `clock`.
    ///   - pollBatch: the most events one poll returns (polling endpoints).
    ///   - clock: what stalls and keepalives wait on.
    public static func start(
        script: FaultScript, answerID: String = "fault-answer", keepAliveInterval: Duration = .milliseconds(10),
        pollBatch: Int = 4,
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> FaultServer {
        let state = NIOLockedValueBox(State())
        let writer = FaultWriter(clock: clock, keepAliveInterval: keepAliveInterval)
        let router = Router()
        @Sendable func respond(_ request: Request, after: Int, method: String) -> Response {
            let fault = nextFault(state, method: method, path: request.uri.path, after: after)
            if case .status(let status, let headers) = fault {
                return FaultWriter.errorResponse(status: status, headers: headers)
            }
            let (bytes, frameEnds) = script.frames(after: after)
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                    HTTPField.Name("Cadence-Answer-ID")!: answerID,
                ],
                body: ResponseBody { body in
                    try await writer.write(bytes, frameEnds: frameEnds, fault: fault, to: &body)
                })
        }
        router.post("/v1/answers") { request, _ -> Response in
            // Read the body first: closing a socket with unread input sends a reset, which can make
            // the client lose bytes the server did send before the injected cut.
            var request = request
            _ = try await request.collectBody(upTo: 1 << 20)
            return respond(request, after: 0, method: "POST")
        }
        router.get("/v1/answers/:id/events") { request, context -> Response in
            let header = request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.uri.queryParameters.get("after")
            let after = header.flatMap { Int($0) } ?? 0
            guard context.parameters.get("id") == answerID else {
                state.withLockedValue {
                    $0.requests.append(FaultRequest(method: "GET", path: request.uri.path, lastEventID: after))
                }
                return FaultWriter.errorResponse(status: 404, headers: [:])
            }
            return respond(request, after: after, method: "GET")
        }
        addPollingRoutes(to: router, script: script, answerID: answerID, batch: pollBatch, state: state)
        let loopback = try await LoopbackServer.start(router: router, label: "cadence.fault")
        return FaultServer(script: script, answerID: answerID, loopback: loopback, state: state)
    }

    /// Records a request and takes the next fault for it.
    static func nextFault(_ state: NIOLockedValueBox<State>, method: String, path: String, after: Int) -> Fault {
        state.withLockedValue { state -> Fault in
            state.requests.append(FaultRequest(method: method, path: path, lastEventID: after))
            let fault = state.faults.isEmpty ? Fault.none : state.faults.removeFirst()
            if case .stall(_, let gate, _) = fault { state.gates.append(gate) }
            return fault
        }
    }

    /// Queues faults for the next requests, one per request, in order.
    public func enqueue(_ faults: Fault...) {
        state.withLockedValue { $0.faults += faults }
    }

    /// Releases every stall, stops the server and waits for it.
    public func shutdown() async {
        for gate in state.withLockedValue({ $0.gates }) { gate.release() }
        await loopback.shutdown()
    }
}

/// A request the ``FaultServer`` received.
public struct FaultRequest: Sendable, Hashable {
    public var method: String
    public var path: String
    /// The `Last-Event-ID` (or `after`) it resumed from; 0 for a new answer.
    public var lastEventID: Int
}
