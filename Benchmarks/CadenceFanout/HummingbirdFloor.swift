import CadenceTesting
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The second floor: a Hummingbird application with the routes the streams benchmark uses and
/// nothing else (no middleware, no registry, no log), writing the same frames as ``FloorServer``.
/// What it costs beyond the first floor is Hummingbird's own request handling: a task per request,
/// and a response writer that the route's loop awaits for every write.
///
/// An events route's response loop reads its answer's steps (``FloorBroadcast``) and writes them, the
/// steps that were ready together in one write, as Cadence's does.
struct HummingbirdFloor: Sendable {
    let production: FloorProduction
    let server: LoopbackServer

    static let answerIDHeader = HTTPField.Name("Cadence-Answer-ID")!

    /// Starts the application on a free loopback port.
    static func start() async throws -> HummingbirdFloor {
        let broadcasts = NIOLockedValueBox<[FloorBroadcast]>([])
        let production = FloorProduction(loops: Array(MultiThreadedEventLoopGroup.singleton.makeIterator())) { step in
            broadcasts.withLockedValue { $0[step.answer] }.append(ByteBuffer(string: step.frames), isLast: step.isLast)
        }
        let router = Router()
        router.get("/healthz") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}\n")))
        }
        router.post("/v1/answers") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
            let query = (object as? [String: Any])?["query"] as? String ?? ""
            let id = broadcasts.withLockedValue { broadcasts in
                broadcasts.append(FloorBroadcast())
                return production.startAnswer(query: query).id
            }
            return Response(status: .ok, headers: [answerIDHeader: id])
        }
        router.get("/v1/answers/:id/events") { _, context -> Response in
            guard let id = context.parameters.get("id"), let index = production.answerIndex(id[...]) else {
                return Response(status: .notFound)
            }
            let broadcast = broadcasts.withLockedValue { $0[index] }
            var headers: HTTPFields = [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ]
            headers[answerIDHeader] = id
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    var cursor = 0
                    while let steps = await broadcast.steps(after: cursor) {
                        cursor += steps.count
                        try await writer.write(steps.buffer)
                    }
                    try await writer.finish(nil)
                })
        }
        let server = try await LoopbackServer.start(router: router, label: "floor")
        return HummingbirdFloor(production: production, server: server)
    }
}
