import CadenceCore
import CadenceEngine
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Streams one answer as `text/event-stream`: numbers the engine's events, writes each as soon
/// as it exists, and sends `: keepalive` while the stream is quiet.
struct AnswerStreamResponder: Sendable {
    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let keepAliveInterval: Duration

    static let headers: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8",
        .cacheControl: "no-cache",
        HTTPField.Name("X-Accel-Buffering")!: "no",
    ]

    func response(for request: AnswerRequest) -> Response {
        Response(status: .ok, headers: Self.headers, body: ResponseBody { writer in
            try await stream(request, to: &writer)
        })
    }

    private func stream(_ request: AnswerRequest, to writer: inout any ResponseBodyWriter) async throws {
        let (frames, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let framesWritten = NIOLockedValueBox(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await produceFrames(for: request, into: continuation)
                continuation.finish()
            }
            group.addTask {
                try await sendKeepAlives(into: continuation, framesWritten: framesWritten)
            }
            for await frame in frames {
                try await writer.write(ByteBuffer(string: frame))
                framesWritten.withLockedValue { $0 += 1 }
            }
            group.cancelAll()
            try await writer.finish(nil)
        }
    }

    /// Numbers the engine's events from 1 and frames them. An engine failure becomes an `error` event.
    private func produceFrames(for request: AnswerRequest, into continuation: AsyncStream<String>.Continuation) async {
        var sequence = 0
        var sentTokens = false
        func send(_ kind: ResearchEvent.Kind) {
            sequence += 1
            continuation.yield(ResearchEventEncoder.frame(ResearchEvent(sequence: sequence, kind: kind)))
        }
        do {
            for try await kind in engine.answer(request) {
                if case .token = kind { sentTokens = true }
                if case .complete = kind, sentTokens {
                    continuation.yield(ResearchEventEncoder.comment("flush-tokens"))
                }
                send(kind)
            }
        } catch is CancellationError {
            return
        } catch {
            send(.error(code: "engine_failed", message: "the answer engine failed: \(error)"))
        }
    }

    /// Every `keepAliveInterval`, sends `: keepalive` if nothing was written since the last tick.
    private func sendKeepAlives(
        into continuation: AsyncStream<String>.Continuation,
        framesWritten: NIOLockedValueBox<Int>
    ) async throws {
        var seen = framesWritten.withLockedValue { $0 }
        while !Task.isCancelled {
            try await clock.sleep(for: keepAliveInterval)
            let now = framesWritten.withLockedValue { $0 }
            if now == seen { continuation.yield(ResearchEventEncoder.comment("keepalive")) }
            seen = framesWritten.withLockedValue { $0 }
        }
    }
}
