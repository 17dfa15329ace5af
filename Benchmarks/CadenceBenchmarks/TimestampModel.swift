import CadenceBenchmarkKit
import CadenceCore
import CadenceTesting
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The model side of the relay benchmark, run as a child process (`CadenceBenchmarks model-node`): an
/// OpenAI-compatible `POST /v1/chat/completions` whose every content delta starts with the
/// `CLOCK_MONOTONIC` time at which it was written, shaped by the plan in the last user message
/// (``TimestampEngine/Plan``'s `key=value` words). Every stream waits for the start gate (`go` on
/// standard input) after its headers, so readers connect first; `GET /stats` says how many streams
/// are waiting or running.
enum TimestampModel {
    static func run() async throws {
        raiseOpenFileLimit()
        let gate = EngineGate()
        let active = ActiveCount()
        let router = Router()
        router.get("/stats") { _, _ in "{\"active\":\(active.value)}" }
        router.post("/v1/chat/completions") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let json = try? JSONValue(parsing: String(buffer: body))
            let messages = json?["messages"]?.arrayValue ?? []
            let plan = TimestampEngine.Plan(query: messages.last?["content"]?.stringValue ?? "")
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    active.add(1)
                    defer { active.add(-1) }
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    let start = await gate.wait()
                    let clock = ContinuousClock()
                    for index in 0..<plan.tokens {
                        if plan.interval > .zero {
                            try await clock.sleep(until: start + plan.phase + plan.interval * index)
                        }
                        let delta = JSONValue.string(plan.token(index, at: monotonicNanoseconds()))
                        try await writer.write(
                            ByteBuffer(string: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\(delta.jsonText)}}]}\n\n"))
                    }
                    try await writer.write(
                        ByteBuffer(
                            string: "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":\(plan.tokens)}}\n\n"
                                + "data: [DONE]\n\n"))
                    try await writer.finish(nil)
                })
        }
        let server = try await LoopbackServer.start(router: router, label: "cadence.benchmark-model")
        FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
        for await line in StandardInputLines.stream() {
            if line == "go" { gate.open() }
            if line == "quit" { break }
        }
        await server.shutdown()
    }
}

/// How many model streams are open.
final class ActiveCount: Sendable {
    private let count = NIOLockedValueBox(0)
    func add(_ delta: Int) { count.withLockedValue { $0 += delta } }
    var value: Int { count.withLockedValue { $0 } }
}
