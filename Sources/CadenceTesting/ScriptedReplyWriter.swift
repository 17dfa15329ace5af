import CadenceCore
import HTTPTypes
import Hummingbird
import NIOCore

/// Writes one ``ScriptedModelServer/Reply`` in the OpenAI Chat Completions streaming format.
struct ScriptedReplyWriter: Sendable {
    let clock: any Clock<Duration>
    /// Opened when the response is over, however it ended.
    let closed: FaultLatch
    /// The connection the reply goes out on.
    let connection: any Channel

    func response(for reply: ScriptedModelServer.Reply) -> Response {
        if case .status(let status, let retryAfter, let message) = reply {
            defer { closed.open() }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let retryAfter { headers[.retryAfter] = retryAfter }
            let body: JSONValue = ["error": ["message": .string(message), "type": "scripted_error", "code": .null]]
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: body.jsonText)))
        }
        var contentType = "text/event-stream"
        if case .raw(_, let type) = reply { contentType = type }
        return Response(
            status: .ok, headers: [.contentType: contentType, .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                defer { closed.open() }
                try await write(reply, to: &writer)
            })
    }

    private func write(_ reply: ScriptedModelServer.Reply, to writer: inout any ResponseBodyWriter) async throws {
        switch reply {
        case .status:
            break
        case .text(let pieces, let finishReason, let usage):
            try await writePieces(pieces, interval: nil, to: &writer)
            try await writeFinish(finishReason, usage: usage, to: &writer)
        case .slow(let pieces, let interval):
            try await writePieces(pieces, interval: interval, to: &writer)
            try await writeFinish("stop", usage: ScriptedModelServer.Usage(input: 10, output: 20), to: &writer)
        case .errorMidStream(let pieces, let message):
            try await writePieces(pieces, interval: nil, to: &writer)
            try await writeEvent(["error": ["message": .string(message), "type": "server_error", "code": .null]], to: &writer)
        case .truncated(let pieces):
            try await writePieces(pieces, interval: nil, to: &writer)
        case .silent(let pieces):
            // Watch for the hang-up before the client can see anything it might hang up on.
            let hungUp = FaultLatch()
            try await connection.pipeline.addHandler(HangUpHandler(hungUp: hungUp), position: .first).get()
            try await writePieces(pieces, interval: nil, to: &writer)
            // Nothing more, until the client gives up and closes its side of the connection.
            await hungUp.wait()
            throw CancellationError()
        case .raw(let bytes, _):
            try await writer.write(ByteBuffer(bytes: bytes))
        }
        try await writer.finish(nil)
    }

    private func writePieces(_ pieces: [String], interval: Duration?, to writer: inout any ResponseBodyWriter) async throws {
        try await writeEvent(Self.chunk(delta: ["role": "assistant", "content": ""], finishReason: nil), to: &writer)
        for piece in pieces {
            if let interval { try await clock.sleep(for: interval) }
            try await writeEvent(Self.chunk(delta: ["content": .string(piece)], finishReason: nil), to: &writer)
        }
    }

    private func writeFinish(_ reason: String, usage: ScriptedModelServer.Usage, to writer: inout any ResponseBodyWriter)
        async throws
    {
        try await writeEvent(Self.chunk(delta: [:], finishReason: reason), to: &writer)
        var usageChunk = Self.envelope
        usageChunk["choices"] = []
        usageChunk["usage"] = [
            "prompt_tokens": .number(Double(usage.input)), "completion_tokens": .number(Double(usage.output)),
            "total_tokens": .number(Double(usage.input + usage.output)),
        ]
        try await writeEvent(.object(usageChunk), to: &writer)
        try await writer.write(ByteBuffer(string: "data: [DONE]\n\n"))
    }

    private func writeEvent(_ value: JSONValue, to writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(ByteBuffer(string: "data: " + value.jsonText + "\n\n"))
    }

    /// The fields every chunk of a real capture carries.
    static let envelope: [String: JSONValue] = [
        "id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 1_727_346_168,
        "model": "scripted-model", "system_fingerprint": "fp_scripted",
    ]

    static func chunk(delta: [String: JSONValue], finishReason: String?) -> JSONValue {
        var chunk = envelope
        chunk["choices"] = [
            [
                "index": 0, "delta": .object(delta), "logprobs": .null,
                "finish_reason": finishReason.map(JSONValue.string) ?? .null,
            ]
        ]
        return .object(chunk)
    }
}

/// Opens a latch when the client closes its side of the connection (Hummingbird allows half-closed
/// connections, so the channel itself stays open until the server closes it too).
final class HangUpHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    let hungUp: FaultLatch

    init(hungUp: FaultLatch) { self.hungUp = hungUp }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { hungUp.open() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hungUp.open()
        context.fireChannelInactive()
    }
}
